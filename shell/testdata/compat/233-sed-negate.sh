sed -n '/apple/!p' notes.txt
