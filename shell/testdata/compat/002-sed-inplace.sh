sed -i 's/apple/APPLE/' notes.txt
cat notes.txt
