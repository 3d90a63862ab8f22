grep -q apple notes.txt
echo $?
grep -q zzz notes.txt
echo $?
grep zzz nonexistent 2>/dev/null
echo $?
