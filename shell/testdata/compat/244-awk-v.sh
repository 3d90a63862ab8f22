awk -v min=5 -F, 'NR > 1 && $2 >= min {print $1}' data.csv
