set -e
grep zzz notes.txt | wc -l
echo "still here"
