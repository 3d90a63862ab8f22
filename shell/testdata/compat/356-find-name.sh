find . -name '*.go' | sort
