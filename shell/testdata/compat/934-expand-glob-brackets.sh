# a lone [ or ] is not a pattern (bash's glob_pattern_p): it survives
# nullglob and failglob; a bracket closed across an expansion is one
mkdir -p gb; cd gb; touch a b '[' x1
shopt -s nullglob; [ 1 -lt 2 ] && echo yes; echo [ ] a[ a] [a z[
c=ab; echo [$c] x[0-9] [
shopt -u nullglob; shopt -s failglob; echo [ x ]; echo [q] || echo failed
