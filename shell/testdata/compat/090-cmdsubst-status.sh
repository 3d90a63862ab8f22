out=$(false)
echo "status $?"
out=$(echo hi; exit 7)
echo "status $? out $out"
