umask 022
touch f; mkdir d d/sub; touch d/sub/x
stat -c '%a %A %n' f d
chmod 755 f; stat -c %a f
chmod u-x,g=r,o-rwx f; stat -c '%a %A' f
chmod +x f; stat -c %a f
chmod -R go-rx d; stat -c '%a %n' d d/sub d/sub/x
chmod a+X f d; stat -c '%a %n' f d
chmod 4755 f; stat -c '%a %A' f
chmod 1777 d; stat -c '%a %A' d
chmod -v 644 f
chmod -c 644 f
chmod =r f; stat -c %a f
chmod 999 f; echo $?
chmod 644 missing; echo $?
chmod --reference=f d; stat -c %a d
