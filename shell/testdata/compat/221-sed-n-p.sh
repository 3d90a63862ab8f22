sed -n '2p' data.csv
sed -n '2,3p' a.txt
sed -n '$p' a.txt
