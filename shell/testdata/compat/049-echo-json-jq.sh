echo '{"k": [1, 2, 3]}' > f.json && jq '.k[1]' f.json
