seq 1 20 > pa; seq 1 20 | sed 's/^5$/five/; s/^15$/fifteen/' > pb
diff -u pa pb | sed '1,2c\
--- pa\
+++ pb' > p.diff
cp pa exact; patch exact < p.diff; echo rc=$?; cat exact | tr '\n' ' '; echo
(echo x; echo y; seq 1 20) > pa; patch -p0 --dry-run < p.diff; echo rc=$?
cp pa off; patch off < p.diff; echo rc=$?; ls off*
sed -i 's/^3$/three/' pa; patch --dry-run pa < p.diff; echo rc=$?
sed -i 's/^4$/four/; s/^6$/six/' pa; cp pa failing; patch failing < p.diff; echo rc=$?; cat failing.rej; ls failing*
patch -R --dry-run exact < p.diff; echo rc=$?
patch exact < p.diff; echo rc=$?
patch -R exact -i p.diff; echo rc=$?; cmp -s exact pb || echo reverted
mkdir -p w/d; printf '1\n2\n3\n' > w/d/f
printf '%s\n' '--- a/d/f' '+++ b/d/f' '@@ -1,3 +1,3 @@' ' 1' '-2' '+TWO' ' 3' > w/git.diff
cd w; patch --dry-run < git.diff; echo rc=$?; patch -p1 < git.diff; echo rc=$?; cat d/f; cd ..
printf 'new\n' > n; diff -u /dev/null n | sed '1,2c\
--- /dev/null\
+++ n' > pn; rm n; patch -p0 < pn; cat n
printf 'keep\nlast' > nl; printf 'keep\nLAST' > nl2; diff -u nl nl2 | sed '1,2c\
--- nl\
+++ nl2' > pnl; patch nl < pnl; od -c nl | head -2
echo '+++ x' | patch; echo rc=$?
