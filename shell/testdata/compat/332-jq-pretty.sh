jq . config.json
