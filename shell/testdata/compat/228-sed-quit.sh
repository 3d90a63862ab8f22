sed 3q log.txt | cut -c1-10
sed -n '/ERROR/{p;q}' log.txt
