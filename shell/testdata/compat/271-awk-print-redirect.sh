awk -F, 'NR > 1 {print $1 > ($4 ".txt")}' data.csv
cat Berlin.txt Paris.txt Rome.txt
