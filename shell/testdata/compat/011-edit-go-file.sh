sed -i 's/hello, /hi, /' src/main.go && grep -n 'hi, ' src/main.go
