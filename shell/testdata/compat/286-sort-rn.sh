sort -rn numbers.txt | head -3
