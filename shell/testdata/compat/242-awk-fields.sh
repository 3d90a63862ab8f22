awk '{print $1}' notes.txt
awk '{print $NF}' log.txt | head -3
