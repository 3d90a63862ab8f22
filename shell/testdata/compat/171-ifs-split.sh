line="a:b::c"
IFS=: read -r x y z w <<< "$line"
echo "$x|$y|$z|$w"
IFS=:
set -- $line
echo $#
