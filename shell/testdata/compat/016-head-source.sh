head -n 5 src/main.go
