while read -r k v; do echo "$v=$k"; done <<EOF
a 1
b 2
EOF
