find src -name '*.go' -exec wc -l {} + | sort
