[ -f data.csv ] && echo file
[ -d src ] && echo dir
[ -e nonexistent ] || echo missing
[ -s empty.txt ] || echo "empty is empty"
[ -s data.csv ] && echo nonempty
test -r data.csv && echo readable
