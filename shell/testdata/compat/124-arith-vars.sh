i=5
i=$((i + 1))
((i++))
((i += 10))
echo $i
let j=i*2
echo $j
echo $((i * j - 1))
