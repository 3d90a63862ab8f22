jq '.version = "2.0.0"' config.json > tmp.json && mv tmp.json config.json
jq -r .version config.json
