umask 022
printf x > f; chmod 750 f
cp f g; cp -p f h; stat -c '%a %n' g h
umask 077; cp f i; stat -c '%a %n' i; umask 022
mkdir sd; chmod 700 sd; cp -r sd cd; cp -rp sd pd; stat -c '%a %n' cd pd
tar cf t.tar f sd; mkdir x; tar xf t.tar -C x; stat -c '%a %n' x/f x/sd
# (tar x under a umask: GNU tar keeps the archived modes as root, not as a user)
mkdir z; tar xpf t.tar -C z; stat -c '%a %n' z/f
