# tree 2.1's listing: lines drawn with ├── │ └──, names in byte order,
# hidden ones with -a, the operands counted among the directories, a link
# to a folder counted as one (followed with -l, once), and -L, -d, -f, -i,
# -F, -I, -P, -p, -s, -h, -r, -v, --dirsfirst, --noreport; errors
export LC_ALL=C # the lines are ASCII in the C locale (the sandbox's own is C.UTF-8)
mkdir -p p/a/b p/c p/e .h
echo x > p/a/b/f.txt; seq 1 2000 > p/z.txt; chmod 755 p/z.txt; echo y > p/.hid
touch p/a/file10 p/a/file9 p/a/file1 p/a/Upper p/a/lower
ln -s a p/dl; ln -s nowhere p/bad; ln -s z.txt p/zl
tree p
tree -a p | tail -3
tree -L 1 p; tree -d p; tree -df p; tree -i -f -L 1 p
tree -F p; tree -I 'a|c' p; tree -P '*.txt' p; tree -l p
tree --dirsfirst -L 1 p; tree -r -L 1 p; tree -v p/a; tree --noreport p/a/b
tree -p -L 1 p/a; tree -s --noreport p/a/b | sed 1d; tree -h p/z.txt; tree -h --noreport p/a/b | sed 1d
(cd p && tree -L 1)
tree nosuch; echo "status $?"
tree -L 0 p 2>&1; echo "status $?"
tree p/a/b p/c
# lines of the locale's character set, or --charset's, or $TREE_CHARSET's
LC_ALL=C.UTF-8 tree p/a | head -3; tree --charset=utf-8 p/a/b; TREE_CHARSET=UTF-8 tree -L 1 p/a | tail -3
LC_ALL=C.UTF-8 tree --charset=ascii -L 1 p/a | head -3
