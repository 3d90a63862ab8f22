find src -mindepth 2 -type f | sort
