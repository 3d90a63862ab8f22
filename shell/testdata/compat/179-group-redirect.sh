{ echo one; echo two; } > grp.txt
wc -l < grp.txt
