gzip notes.txt
ls notes.txt*
gunzip notes.txt.gz
head -2 notes.txt
