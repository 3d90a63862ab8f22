grep -m1 ERROR log.txt
grep -B1 'connected to db' log.txt
grep -C1 'WARN disk' log.txt
