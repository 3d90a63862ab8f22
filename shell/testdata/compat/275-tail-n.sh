tail -n 2 notes.txt
tail -1 words.txt
tail -n 2 nonl.txt
echo
