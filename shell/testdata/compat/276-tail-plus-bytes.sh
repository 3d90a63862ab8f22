tail -n +3 a.txt
tail -c 6 nonl.txt
echo
tail -c +10 a.txt
