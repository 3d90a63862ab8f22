find src -name '*.go' | sort | xargs wc -l | tail -1
