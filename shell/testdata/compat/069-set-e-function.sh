set -e
f() { echo in-f; false; echo not-here; }
f
echo after
