grep -h apple notes.txt words.txt
grep -H fig words.txt
