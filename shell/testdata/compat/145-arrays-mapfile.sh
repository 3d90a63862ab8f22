mapfile -t lines < a.txt
echo ${#lines[@]}
echo "${lines[1]}"
