cat -n src/server/http.go
