seq 5
seq 2 4
seq 10 -3 1
seq -w 8 11
seq -s, 1 5
seq 1 0.5 3
