ln -s data.csv link.csv
readlink link.csv
head -1 link.csv
[ -L link.csv ] && echo symlink
readlink -f link.csv
