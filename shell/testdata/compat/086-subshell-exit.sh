(exit 3)
echo $?
(false)
echo $?
(true)
echo $?
