find . \( -name '*.md' -o -name '*.json' \) | sort
find . -iname 'readme*'
