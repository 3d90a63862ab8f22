du -a src | awk '{print $2}' | sort
