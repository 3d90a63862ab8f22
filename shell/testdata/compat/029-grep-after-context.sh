grep -n -A2 'func greet' src/main.go
