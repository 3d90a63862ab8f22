find . -type d | sort
find src -type f | wc -l
