x=7
if ((x > 5)); then echo big; fi
(( x == 3 )) || echo "not three"
echo $(( x > 5 ? 1 : 0 ))
