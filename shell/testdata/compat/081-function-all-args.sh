show() {
  for a in "$@"; do echo "<$a>"; done
  echo "star: $*"
  echo "count: $#"
}
show a "b c" d
