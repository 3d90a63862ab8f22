grep -F '2.50' data.csv
grep -c '.' data.csv
grep -cF '.' data.csv
