cp a.txt a2.txt
cmp a.txt a2.txt
echo $?
cmp a.txt b.txt
echo $?
cmp -s a.txt b.txt || echo differ
