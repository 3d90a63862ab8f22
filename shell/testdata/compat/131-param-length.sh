s=hello
echo ${#s}
a=(1 2 3 4)
echo ${#a[@]}
e=""
echo ${#e}
