bash -c 'echo inner $((1 + 1))'
sh -c 'exit 5'
echo $?
