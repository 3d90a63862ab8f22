for f in *; do echo "[$f]"; done
for f in dir\ with\ spaces/*; do cat "$f"; done
