find . -type f | wc -l
find src -type f -name '*.go' | wc -l
