readonly R=1
echo $R
(R=2) 2>/dev/null
echo $?
