stat -c '%s' empty.txt nonl.txt
stat --format='%n is %s bytes' README.md
