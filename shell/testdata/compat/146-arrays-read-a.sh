IFS=, read -r -a cols <<< "x,y,z"
echo ${cols[1]} ${#cols[@]}
