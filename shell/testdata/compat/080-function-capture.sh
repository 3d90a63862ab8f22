upper() { echo "$1" | tr a-z A-Z; }
v=$(upper hello)
echo "[$v]"
