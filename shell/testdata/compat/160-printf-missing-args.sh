printf 'no newline'
printf '\n'
printf '[%s]\n'
printf '%d\n'
