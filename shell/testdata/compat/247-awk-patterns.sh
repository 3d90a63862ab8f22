awk '/ERROR/' log.txt
awk '$3 == "WARN" {print $4, $5}' log.txt
