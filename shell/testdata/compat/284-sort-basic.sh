sort words.txt
sort notes.txt
