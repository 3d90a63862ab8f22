tail -n +2 data.csv | sort -t, -k2 -n
tail -n +2 data.csv | sort -t, -k3,3nr | head -2
