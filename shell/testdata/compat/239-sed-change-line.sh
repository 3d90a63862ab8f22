sed '2c\replaced' a.txt
