opt=--verbose
case "$opt" in
  -v|--verbose) echo verbose ;;
  -h|--help) echo help ;;
esac
n=42
case $n in
  [0-9]) echo one-digit ;;
  [0-9][0-9]) echo two-digit ;;
esac
