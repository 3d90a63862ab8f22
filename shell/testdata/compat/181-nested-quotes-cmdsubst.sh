echo "files: $(ls "dir with spaces" | tr '\n' ',')"
