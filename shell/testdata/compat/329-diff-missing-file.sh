diff a.txt nonexistent 2>/dev/null
echo $?
