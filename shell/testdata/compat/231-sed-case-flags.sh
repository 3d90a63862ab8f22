sed 's/apple/X/gI' notes.txt
sed 's/^./\U&/' words.txt | head -3
