echo '{bad json' | jq . 2>/dev/null
echo "exit=$?"
