printf 'c\na\nb\n' | sort
sort -o sorted.txt words.txt
head -2 sorted.txt
