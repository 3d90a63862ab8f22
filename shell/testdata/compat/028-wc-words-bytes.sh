wc -w README.md
wc -c data.csv
