base64 src/main.go | base64 -d | cmp - src/main.go && echo roundtrip-ok
printf 'a' | base64
base64 -w0 README.md | wc -c
