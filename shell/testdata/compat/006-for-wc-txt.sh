for f in *.txt; do wc -l "$f"; done
