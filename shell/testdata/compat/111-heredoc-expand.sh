name=agent
cat <<EOF
hi $name
sum: $((2 + 3))
cmd: $(echo sub)
escaped: \$name
EOF
