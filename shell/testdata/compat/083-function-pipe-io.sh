count_lines() { wc -l | tr -d ' '; }
cat notes.txt | count_lines
grep apple notes.txt | count_lines
