count=0
cat words.txt | while read -r w; do count=$((count + 1)); done
echo "count=$count"
