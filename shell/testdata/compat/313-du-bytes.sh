du -b data.csv a.txt
