grep -c TODO src/main.go src/util/strings.go src/server/http.go
