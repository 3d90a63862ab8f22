grep -w apple notes.txt
grep -w app notes.txt
echo $?
