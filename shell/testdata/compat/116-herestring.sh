tr a-z A-Z <<< "hello there"
read -r a b <<< "x y z"
echo "$a|$b"
