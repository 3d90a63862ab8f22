awk -F, -v OFS=';' '{$1 = $1; print}' data.csv
awk 'BEGIN {OFS = "-"} {print $1, $2}' notes.txt
