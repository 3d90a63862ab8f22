grep TODO src 2>/dev/null
echo $?
