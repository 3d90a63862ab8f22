f=archive.tar.gz
echo ${f%.*} ${f%%.*} ${f#*.} ${f##*.}
p=/a/b/c.txt
echo ${p##*/} ${p%/*}
