echo "unterminated
