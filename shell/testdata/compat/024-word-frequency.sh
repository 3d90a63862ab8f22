cat words.txt | sort | uniq -c | sort -rn | head -3
