awk -F, '{print $1 ":" $4}' data.csv
awk -F: '{print $1, $7}' users.txt
