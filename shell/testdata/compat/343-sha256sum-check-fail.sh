sha256sum a.txt > s.sum
echo x >> a.txt
sha256sum -c s.sum 2>/dev/null
echo $?
