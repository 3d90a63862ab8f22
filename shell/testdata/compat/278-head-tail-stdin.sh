seq 100 | head -n 3
seq 100 | tail -n 2
seq 5 | tail -n +4
