wc -l notes.txt
wc -w notes.txt
wc -c notes.txt
wc notes.txt
wc -l < notes.txt
