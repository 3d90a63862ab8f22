wc -l a.txt b.txt notes.txt
