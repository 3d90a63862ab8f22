find . -type f -not -path './src/*' -name '*.md' | sort
