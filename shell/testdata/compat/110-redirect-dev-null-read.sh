cat < /dev/null | wc -c
read -r line < /dev/null
echo "read=$?"
