[ 3 -lt 5 ] && echo lt
[ 5 -ge 5 ] && echo ge
[ 10 -ne 3 ] && echo ne
test 2 -gt 3
echo $?
[ ! 1 -eq 2 ] && echo not
