echo a b c | xargs echo
echo a b c | xargs -n1 echo item
