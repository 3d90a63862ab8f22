echo aaaa | sed 's/a/b/3'
echo aaaa | sed 's/a/b/2g'
