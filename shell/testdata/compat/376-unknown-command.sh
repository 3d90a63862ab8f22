nosuchcommand
echo "exit: $?"
