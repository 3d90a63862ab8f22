awk '{for (i = 1; i <= NF; i++) w[$i]++} END {for (k in w) if (w[k] > 1) print k, w[k]}' notes.txt | sort
