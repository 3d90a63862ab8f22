awk -F, '$1 ~ /^g/ {print $1}' data.csv
awk -F, 'NR > 1 && $4 !~ /Berlin/ {print $1}' data.csv
