seq 10 | sed -n '1~3p'
