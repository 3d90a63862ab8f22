sed -e 's/apple/APPLE/' -e 's/banana/BANANA/' notes.txt
sed 's/a/1/;s/b/2/' a.txt
