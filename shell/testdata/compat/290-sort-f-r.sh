sort -f notes.txt
sort -r a.txt
