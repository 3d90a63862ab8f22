echo "line1" > out.txt
echo "line2" >> out.txt
cat out.txt
wc -l < out.txt
