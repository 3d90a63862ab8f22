awk '!seen[$0]++' words.txt
