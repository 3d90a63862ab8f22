sed -i.bak 's/Berlin/Munich/g' data.csv
cat data.csv
grep -c Berlin data.csv.bak
