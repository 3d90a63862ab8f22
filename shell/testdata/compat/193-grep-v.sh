grep -v apple notes.txt
