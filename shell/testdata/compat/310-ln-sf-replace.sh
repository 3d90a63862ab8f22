ln -s a.txt cur
ln -sf b.txt cur
readlink cur
cat cur | head -1
