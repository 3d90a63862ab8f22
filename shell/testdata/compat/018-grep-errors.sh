grep -c ERROR log.txt
grep ERROR log.txt | awk '{print $NF}'
