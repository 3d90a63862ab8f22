awk 'BEGIN {printf "%s|%d|%.3f|%c|%5s|%-5s|%x\n", "s", 3.9, 3.14159, 65, "r", "l", 255}'
