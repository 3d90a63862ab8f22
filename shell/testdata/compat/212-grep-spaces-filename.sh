grep -n note "my notes.txt"
grep -r one "dir with spaces"
