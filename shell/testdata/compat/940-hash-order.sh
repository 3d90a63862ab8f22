# hash lists the remembered paths in the order of bash's hash table
# (256 buckets by FNV-1, the latest first within one), also after -d,
# -p and in a subshell; -d of a name not remembered is reported
exec 2>err.txt
PATH=/usr/bin:/bin
hash; echo "rc=$?"
cat /dev/null; ls >/dev/null; sed q /dev/null; grep -q x /dev/null; tr a b </dev/null; wc -l </dev/null >/dev/null; sort </dev/null; head -0 /dev/null; tail -0 /dev/null; cut -c1 /dev/null; uniq /dev/null; awk 1 /dev/null
hash
hash -l
hash -t cat ls; echo "rc=$?"
hash -d nosuch; echo "rc=$?"
hash -d cat nosuch ls; echo "rc=$?"
hash
hash -p /bin/true mytrue; hash -p /bin/false myfalse; hash
hash -r; hash; echo "rc=$?"
(hash -p /bin/cat kitty; hash -l)
exec 2>&1; sed 's/^.*line [0-9]*: //' err.txt
