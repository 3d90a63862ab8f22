sed 's/no/NO/' nonl.txt
echo
sed -n '$p' nonl.txt | wc -c
