find . -name '*.go' | sort | xargs wc -l
