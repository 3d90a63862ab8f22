sed 's/a/A/g' a.txt
