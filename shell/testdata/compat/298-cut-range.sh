cut -d, -f2- data.csv | head -2
echo "a b c" | cut -d' ' -f2
