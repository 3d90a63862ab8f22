echo '{"a":1}' | jq .a
echo '{"a":null}' | jq -e .a
echo "exit=$?"
