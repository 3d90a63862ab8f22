cat notes.txt | wc
printf 'x' | wc -l
printf '' | wc -c
