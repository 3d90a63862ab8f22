printf 's/apple/pear/\n/cherry/d\n' > edit.sed
sed -f edit.sed a.txt
