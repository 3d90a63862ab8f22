awk -F, 'NR > 1 {printf "%-12s %3d %8.2f\n", $1, $2, $2 * $3}' data.csv
