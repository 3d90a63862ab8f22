for d in */; do echo "dir: $d"; done
