head -c 10 README.md
echo
head -c 5 nonl.txt
echo
