find . -path '*util*' | sort
find src -name '*_test.go'
