tail -n 3 log.txt
