cat <<EOF | grep -c a
apple
banana
cherry
EOF
