grep -o 'port [0-9]*' log.txt | awk '{print $2}'
