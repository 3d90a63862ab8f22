echo ?.txt
echo [a-d]*
