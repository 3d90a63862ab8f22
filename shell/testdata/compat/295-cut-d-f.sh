cut -d, -f1,3 data.csv
cut -d: -f1 users.txt
