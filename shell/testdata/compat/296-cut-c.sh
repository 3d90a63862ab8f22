cut -c1-5 notes.txt
cut -c3- a.txt
