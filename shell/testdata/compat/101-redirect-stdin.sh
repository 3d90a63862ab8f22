tr a-z A-Z < notes.txt | head -2
while read -r l; do echo "> $l"; done < a.txt
