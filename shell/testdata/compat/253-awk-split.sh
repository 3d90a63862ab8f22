echo "a-b-c-d" | awk '{n = split($0, p, "-"); print n, p[1], p[n]}'
