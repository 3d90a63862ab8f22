find src -name '*.go' | sort | while read -r f; do basename "$f" .go; done
