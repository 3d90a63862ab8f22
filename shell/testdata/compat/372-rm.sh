rm a.txt
ls a.txt 2>/dev/null || echo gone
rm nonexistent 2>/dev/null
echo $?
rm -f nonexistent
echo $?
rm docs 2>/dev/null
echo $?
rm -rf docs
[ -d docs ] || echo "docs removed"
