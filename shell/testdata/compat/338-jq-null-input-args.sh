jq -n '1 + 2'
jq -n --arg x hi '{greeting: $x}'
jq -R . a.txt | head -2
echo '1 2 3' | jq -s 'add'
