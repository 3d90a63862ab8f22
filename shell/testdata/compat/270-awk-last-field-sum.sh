du -b a.txt b.txt | awk '{s += $1} END {print s}'
