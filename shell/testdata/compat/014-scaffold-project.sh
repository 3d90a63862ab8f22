mkdir -p app/cmd app/internal
cat > app/go.mod <<'EOF'
module example.com/app

go 1.22
EOF
touch app/cmd/main.go app/internal/db.go
find app | sort
cat app/go.mod
