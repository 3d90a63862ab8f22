echo *.nomatch
ls *.nomatch 2>/dev/null
echo $?
