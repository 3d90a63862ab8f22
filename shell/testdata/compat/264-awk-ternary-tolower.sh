awk -F, 'NR > 1 {print tolower($4), ($2 > 5 ? "many" : "few")}' data.csv
