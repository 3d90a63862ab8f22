for f in main.go README.md data.csv Makefile x.tar.gz; do
  case $f in
    *.go) echo "$f: go" ;;
    *.md|*.txt) echo "$f: text" ;;
    *.tar.gz) echo "$f: archive" ;;
    [A-Z]*) echo "$f: capital" ;;
    *) echo "$f: other" ;;
  esac
done
