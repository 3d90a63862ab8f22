awk -F, 'NR > 1 {s += $2 * $3} END {printf "total: %.2f\n", s}' data.csv
