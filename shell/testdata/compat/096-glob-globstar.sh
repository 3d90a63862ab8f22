shopt -s globstar
echo src/**/*.go
for f in **/*.md; do echo "md: $f"; done
