echo a > f
echo b >> f
echo c > f2
cat f f2
