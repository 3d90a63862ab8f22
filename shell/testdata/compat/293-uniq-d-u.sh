sort words.txt | uniq -d
sort words.txt | uniq -u
