echo hello | tee out.txt
cat out.txt
echo more | tee -a out.txt > /dev/null
cat out.txt
