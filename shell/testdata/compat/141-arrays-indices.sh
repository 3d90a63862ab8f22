a=(x y z)
echo ${!a[@]}
a[5]=w
echo ${!a[@]}
unset 'a[1]'
echo "${a[@]}"
echo ${#a[@]}
