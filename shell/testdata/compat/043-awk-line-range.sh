awk 'NR >= 3 && NR <= 5' log.txt
