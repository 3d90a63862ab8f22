wc -l nonl.txt empty.txt
wc -c nonl.txt
