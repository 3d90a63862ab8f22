d=`basename /a/b/c.txt`
echo $d
echo "count: `grep -c apple notes.txt`"
