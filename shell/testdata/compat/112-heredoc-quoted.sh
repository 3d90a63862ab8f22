cat <<'EOF'
literal $HOME $(date) `x`
EOF
