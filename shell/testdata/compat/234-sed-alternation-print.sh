cat log.txt | sed -n 's/.*\(ERROR\|WARN\) \(.*\)/\1: \2/p'
