ls nonexistent 2>/dev/null
echo $?
ls data.csv nonexistent 2>/dev/null
echo $?
