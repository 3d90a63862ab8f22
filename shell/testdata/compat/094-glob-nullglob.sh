shopt -s nullglob
for f in *.nomatch; do echo "got $f"; done
echo done
