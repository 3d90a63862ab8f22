awk 'NR == FNR {a[$1]; next} $1 in a' a.txt b.txt
