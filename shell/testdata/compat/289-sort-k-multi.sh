tail -n +2 data.csv | sort -t, -k4,4 -k2,2n
