awk -F'\t' 'NR > 1 {s += $3} END {print s / (NR - 1)}' tabs.tsv
