diff <(sort a.txt) <(sort b.txt)
echo $?
