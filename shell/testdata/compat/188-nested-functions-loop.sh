process() {
  local file=$1
  local n
  n=$(wc -l < "$file")
  echo "$file: $n"
}
for f in a.txt b.txt words.txt; do process "$f"; done
