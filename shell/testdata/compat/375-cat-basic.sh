cat a.txt b.txt
echo x | cat - a.txt | head -2
cat nonexistent 2>/dev/null
echo $?
