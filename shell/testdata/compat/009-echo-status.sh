ls data.csv > /dev/null
echo $?
grep -q nosuchword notes.txt
echo $?
ls nonexistent 2>/dev/null
echo $?
