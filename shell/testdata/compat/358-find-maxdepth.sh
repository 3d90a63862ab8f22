find . -maxdepth 1 -type f | sort
