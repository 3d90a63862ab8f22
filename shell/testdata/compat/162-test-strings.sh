a=foo
b=bar
[ "$a" = foo ] && echo eq
[ "$a" != "$b" ] && echo ne
[ -z "" ] && echo zero
[ -n "$a" ] && echo nonzero
[ "$a" \< "$b" ] || echo "foo not < bar"
