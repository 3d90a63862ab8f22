cat > config.yaml <<EOF
server:
  host: localhost
  port: 8080
debug: true
EOF
grep -n port config.yaml
awk -F': ' '/port/ {print $2}' config.yaml
