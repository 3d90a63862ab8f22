sort -n numbers.txt
sort numbers.txt
