while IFS= read -r line; do echo "[$line]"; done < notes.txt
