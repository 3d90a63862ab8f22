exec 3> fd3.txt
echo via3 >&3
echo also >&3
exec 3>&-
cat fd3.txt
