printf 'a\tb\n'
printf '%b\n' 'x\ty'
printf '%%\n'
printf '%c\n' hello
printf '%q\n' "a b"
