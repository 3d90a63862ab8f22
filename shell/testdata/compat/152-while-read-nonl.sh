while read -r l || [ -n "$l" ]; do echo "got: $l"; done < nonl.txt
