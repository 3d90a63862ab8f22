umask 022
umask; umask -S; umask -p; umask -pS
umask 077; touch a; mkdir b; stat -c '%a %n' a b
umask 027; echo x > c; mkdir -p d/e; stat -c '%a %n' c d d/e
umask u=rwx,g=rx,o=; umask
umask g-x; umask
umask +w; umask
umask 8; echo $?
umask 022; (umask 077; touch sub); stat -c '%a %n' sub
