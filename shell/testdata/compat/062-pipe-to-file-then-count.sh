grep -rh TODO src > todos.txt
wc -l < todos.txt
sort todos.txt
