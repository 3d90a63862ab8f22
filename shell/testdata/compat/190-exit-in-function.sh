f() { echo inside; exit 5; }
f
echo never
