grep -rn TODO --exclude-dir=util src | sort
