cat > req.json <<'EOF'
{"user": {"id": 7, "email": "a@b.c"}, "items": [1, 2, 3]}
EOF
jq '.items | add' req.json
jq -r '.user.email' req.json
jq '.user.id' req.json
