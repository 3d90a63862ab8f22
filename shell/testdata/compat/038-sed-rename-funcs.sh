sed -E 's/func ([A-Z][a-z]+)\(/func \1Str(/' src/util/strings.go | grep func
