grep -i apple notes.txt
