jq -r '.[] | "\(.name) is \(.age)"' people.json
jq -r '.[] | [.name, .role] | @csv' people.json
jq -r '.[] | .tags | join(",")' people.json
