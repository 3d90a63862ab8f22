tr -d '\r' < mixed.txt | wc -c
wc -c < mixed.txt
echo hello123 | tr -d 0-9
