s=""
for w in a b c; do s="$s$w"; done
echo $s
s+=d
echo $s
