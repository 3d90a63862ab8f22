jq -c '.[] | {name, role}' people.json
jq -c '.ports' config.json
