printf '%s\0' "my notes.txt" "dir with spaces/file one.txt" | xargs -0 cat
