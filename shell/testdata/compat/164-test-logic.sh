[ -f data.csv -a -d src ] && echo both
[ -f nonexistent -o -d src ] && echo either
[ -f data.csv ] && [ -f nonexistent ]
echo $?
