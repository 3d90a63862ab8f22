jq '.[0].name' people.json
jq -r '.[].name' people.json
jq length people.json
