x=$(printf 'a\n\n\n')
echo "[$x]"
y="$(cat empty.txt)"
echo "[$y]"
z=$(printf '  spaced  ')
echo "[$z]"
