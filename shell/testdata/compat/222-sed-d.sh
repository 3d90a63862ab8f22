sed '1d' data.csv
sed '$d' a.txt
sed '/Berlin/d' data.csv
