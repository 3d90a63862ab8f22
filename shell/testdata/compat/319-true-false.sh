true
echo $?
false
echo $?
! true
echo $?
! false
echo $?
true && false
echo $?
