jq -r 'keys[]' config.json
jq 'map(.age) | max' people.json
