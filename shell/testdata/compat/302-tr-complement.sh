echo 'Hello, World! 123' | tr -cd '[:alnum:]\n'
echo "x y" | tr ' ' '_'
