sed -n '8,12p' src/main.go
