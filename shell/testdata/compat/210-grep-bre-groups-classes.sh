grep 'ap\(p\)le' notes.txt
grep -E '^(apple|fig)' notes.txt
grep '[[:upper:]]' notes.txt
