find . -empty | sort
