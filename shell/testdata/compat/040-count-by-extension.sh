find . -type f -name '*.*' | sed 's/.*\.//' | sort | uniq -c | sort -k2
