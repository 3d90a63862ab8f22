grep -n an notes.txt
