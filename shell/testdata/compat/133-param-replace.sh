x=banana
echo ${x//a/b} ${x/a/b} ${x/#b/B} ${x/%a/A}
path="a b c"
echo "${path// /_}"
