echo "a    b   c" | tr -s ' '
echo "aabbcc" | tr -s a-c
echo "a,b,c" | tr , '\n'
