cat data.csv | tail -n +2 | cut -d, -f4 | sort | uniq -c | sort -rn
