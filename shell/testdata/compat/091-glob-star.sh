echo *.txt
echo src/*
