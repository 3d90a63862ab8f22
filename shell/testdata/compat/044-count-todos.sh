grep -rn TODO . --include="*.go" | wc -l
