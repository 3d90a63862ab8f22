arr=(one two three)
echo ${arr[0]} ${arr[2]}
arr+=(four)
echo "${arr[@]}"
echo ${#arr[@]}
for x in "${arr[@]}"; do echo "- $x"; done
