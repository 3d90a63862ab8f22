grep -rl TODO . | sort
