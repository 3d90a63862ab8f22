umask 022
printf 'x\n' > isrc; chmod 600 isrc
install isrc dst; stat -c '%a %n' dst; cat dst
install -m 640 isrc m640; stat -c '%a %n' m640
install -d -m 700 made/deep; stat -c '%a %n' made made/deep
install -D isrc a/b/c; stat -c '%a %n' a a/b a/b/c
mkdir t; install -t t isrc m640; ls t
install -v isrc dst2
install -m 644 isrc src2 t; stat -c '%a %n' t/src2
install missing x; echo $?
install isrc; echo $?
install isrc nodir/x; echo $?
