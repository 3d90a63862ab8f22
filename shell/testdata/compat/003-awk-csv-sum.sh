awk -F, '{s+=$2} END {print s}' data.csv
