awk '{print NR, NF}' notes.txt
awk 'END {print NR}' log.txt
