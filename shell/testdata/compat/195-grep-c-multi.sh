grep -c apple notes.txt words.txt
