sed 's/\([a-z]*\) \([a-z]*\)/\2 \1/' notes.txt
