# stat's default report names a file as it is; %N quotes it as coreutils
# 9.1 does (in $QUOTING_STYLE's style, shell-escape-always by default)
touch plain 'a b' "it's"; ln -s 'a b' l
stat plain 'a b' "it's" l | grep File
stat -c '%N' plain 'a b' "it's" l
QUOTING_STYLE=literal stat -c %N 'a b' l; QUOTING_STYLE=shell stat -c %N plain 'a b'
