head -n -2 a.txt
