find src -name '*.go' | sort | xargs grep -l 'func'
