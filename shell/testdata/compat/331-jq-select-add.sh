jq -r '.[] | select(.age > 30) | .name' people.json
jq '[.[] | .age] | add' people.json
