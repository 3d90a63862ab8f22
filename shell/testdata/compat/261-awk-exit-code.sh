awk 'BEGIN {exit 3}'
echo $?
awk '/zzz/ {f = 1} END {exit !f}' notes.txt
echo $?
