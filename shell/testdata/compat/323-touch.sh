touch new.txt
ls new.txt
wc -c < new.txt
touch a.txt
wc -l < a.txt
touch x/y 2>/dev/null
echo $?
