sort -u words.txt
