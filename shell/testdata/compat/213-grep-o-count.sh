grep -o a notes.txt | wc -l
