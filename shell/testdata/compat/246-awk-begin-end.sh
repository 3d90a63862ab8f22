awk 'BEGIN {print "start"} {n++} END {print "lines:", n}' a.txt
