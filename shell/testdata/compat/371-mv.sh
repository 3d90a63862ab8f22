mv a.txt renamed.txt
ls *.txt
mv renamed.txt docs/
ls docs
mv nonexistent x 2>/dev/null
echo $?
