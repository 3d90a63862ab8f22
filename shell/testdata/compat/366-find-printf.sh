find src -type f -printf '%f\n' | sort
