[ 1 -eq x ] 2>/dev/null
echo $?
[ a b ] 2>/dev/null
echo $?
