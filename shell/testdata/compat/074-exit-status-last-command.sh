grep -q zzz notes.txt
