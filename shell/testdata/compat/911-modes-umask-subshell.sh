(umask 077); umask
umask 027; (umask; umask 077; umask; touch in-sub); umask; stat -c %a in-sub
x=$(umask 077; umask); echo "$x"; umask
{ umask 011; }; umask
umask 022
umask 077 | cat; umask
(umask 077; touch f1); touch f2; stat -c '%n %a' f1 f2
bash -c 'umask 0'; umask
umask 033 & wait; umask
f() { umask 007; }; f; umask
