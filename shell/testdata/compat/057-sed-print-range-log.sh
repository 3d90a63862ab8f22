sed -n '1,3p' log.txt
