sed 's/an/AN/' notes.txt
