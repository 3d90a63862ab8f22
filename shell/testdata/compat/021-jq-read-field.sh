jq -r '.scripts.build' config.json
