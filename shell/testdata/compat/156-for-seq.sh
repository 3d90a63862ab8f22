for i in $(seq 3); do echo "item $i"; done
