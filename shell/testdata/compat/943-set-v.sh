# set -v echoes the script's lines as they are read: comments, blank
# lines, a here-document's body, a whole line once (not the rest of the
# line that set -v itself is on)
exec 2>err.txt
set -v; echo x
# comment

echo y; echo z
cat <<E
body
E
f() {
  echo in
}
f
set +v
exec 2>&1; cat err.txt; rm err.txt
