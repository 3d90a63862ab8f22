sed '1i\# header' a.txt
sed '2a\after two' a.txt
sed '$a end' a.txt
