command -v echo
command -v no_such_cmd_xyz
echo $?
