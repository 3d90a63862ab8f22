sed '/^\s*\/\//d' src/util/strings.go
