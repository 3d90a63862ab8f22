which ls
which no_such_cmd_xyz
echo $?
