head -n 1 a.txt b.txt
tail -n 1 a.txt b.txt
