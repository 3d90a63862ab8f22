head -n 2 notes.txt
head -3 words.txt
head notes.txt | wc -l
