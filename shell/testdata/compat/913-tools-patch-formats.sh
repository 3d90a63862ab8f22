seq 1 30 > ca; seq 1 30 | sed 's/^5$/five/; /^12$/d; s/^20$/twenty\nextra/' > cb
diff -c ca cb | sed '1,2c\
*** ca\
--- cb' > c.diff
cp ca c1; patch c1 < c.diff; echo rc=$?; cmp c1 cb && echo same
(echo top; echo top2; cat ca) > c2; patch c2 < c.diff; echo rc=$?; cmp -s c2 <(echo top; echo top2; cat cb) && echo same
cp ca c3; patch --dry-run -R c3 < c.diff; echo rc=$?
cp cb c4; patch -R c4 < c.diff; echo rc=$?; cmp c4 ca && echo same
sed 's/^3$/three/' ca > c5; patch c5 < c.diff; echo rc=$?; sed -n '1,6p' c5 | tr '\n' ' '; echo
sed 's/^4$/four/; s/^6$/six/' ca > c6; patch c6 < c.diff; echo rc=$?; ls c6*; cat c6.rej
diff ca cb > n.diff; cat n.diff
cp ca n1; patch n1 < n.diff; echo rc=$?; cmp n1 cb && echo same
(echo a; echo b; cat ca) > n2; patch n2 n.diff; echo rc=$?; cmp -s n2 <(echo a; echo b; cat cb) && echo same
cp cb n3; patch -R n3 < n.diff; echo rc=$?; cmp n3 ca && echo same
printf 'x\ny\n' > e1; printf 'x\nY\nz\n' > e2; diff -c e1 e2 | sed '1,2c\
*** e1\
--- e2' > e.diff; patch e1 < e.diff; echo rc=$?; cat e1
printf 'only\n' > o1; : > o2; diff -c o1 o2 | sed '1,2c\
*** o1\
--- o2' > o.diff; cat o.diff; patch o1 < o.diff; echo rc=$?; wc -c < o1
mkdir -p d; seq 1 5 > d/f; seq 1 5 | sed 's/3/THREE/' > f.new
diff -c d/f f.new | sed '1,2c\
*** a/d/f\
--- b/d/f' > g.diff; patch -p1 < g.diff; echo rc=$?; cat d/f | tr '\n' ' '; echo
