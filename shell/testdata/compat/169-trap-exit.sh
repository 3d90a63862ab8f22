trap 'echo cleanup' EXIT
echo working
exit 2
