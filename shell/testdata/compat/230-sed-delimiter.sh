echo /usr/local/bin | sed 's|/|:|g'
echo a.b.c | sed 's/\./-/g'
