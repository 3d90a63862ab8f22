files=($(ls src))
echo ${#files[@]}
echo "${files[@]}"
