nosuchcmd 2>/dev/null | wc -l
echo $?
if ! nosuchcmd 2>/dev/null; then echo "not found"; fi
