gzip -k a.txt
ls a.txt*
zcat a.txt.gz
gzip -c b.txt | gzip -d | head -1
gzip -dc a.txt.gz | wc -l
