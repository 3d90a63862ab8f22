awk 'NR == 1 || $1 > max {max = $1} END {print max}' numbers.txt
