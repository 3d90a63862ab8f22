grep -x apple words.txt | wc -l
grep -e fig -e pear words.txt
