awk '{gsub(/a/, "4"); print}' a.txt
awk '{n = sub(/an/, "[&]"); print n, $0}' notes.txt
