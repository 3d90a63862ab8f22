sort words.txt | uniq
sort words.txt | uniq -c
