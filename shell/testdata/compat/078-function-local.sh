x=global
f() { local x=local; echo "in f: $x"; }
f
echo "after f: $x"
g() { x=changed; }
g
echo "after g: $x"
