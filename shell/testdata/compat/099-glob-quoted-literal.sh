echo "*.txt"
echo '*'
x='*.csv'
echo $x
echo "$x"
