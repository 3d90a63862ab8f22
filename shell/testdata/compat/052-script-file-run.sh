cat > run.sh <<'EOF'
echo "args: $#"
for a in "$@"; do echo "- $a"; done
EOF
bash run.sh one "two words"
