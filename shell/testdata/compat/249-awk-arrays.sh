awk -F, 'NR > 1 {sum[$4] += $2} END {for (c in sum) print c, sum[c]}' data.csv | sort
