find . -path './dir with spaces/*' -name '*.txt' -print0 | xargs -0 rm -f
ls 'dir with spaces' | wc -l
