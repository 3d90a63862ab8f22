ls nonexistent 2> err.txt
echo $?
test -s err.txt && echo "err.txt has content"
echo to-stderr >&2
