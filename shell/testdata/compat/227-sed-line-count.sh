sed -n '$=' log.txt
