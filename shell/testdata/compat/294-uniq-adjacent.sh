uniq words.txt
