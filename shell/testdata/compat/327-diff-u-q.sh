diff -u a.txt b.txt | tail -n +3
diff -q a.txt b.txt
diff a.txt a.txt && echo same
