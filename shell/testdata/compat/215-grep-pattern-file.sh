printf 'apple\nfig\n' > pats.txt
grep -f pats.txt notes.txt
