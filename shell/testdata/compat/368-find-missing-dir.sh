find nonexistent 2>/dev/null
echo $?
