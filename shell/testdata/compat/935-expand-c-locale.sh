# in the C locale a character is a byte: ${#s} and ? in ${s//pat/rep}
export LC_ALL='C'
s='_μ_ and _μ_'
echo ${s//_?_/foo} ${s/#_?_/foo} ${s/%_?_/foo} ${s//_??_/X} ${#s} ${s//μ/m} ${s/#_/}
a='_x_ and _y_'
echo ${a//_?_/foo} ${a/#_?_/foo} ${a/%_?_/foo}
LC_ALL=C.UTF-8
echo ${s//_?_/foo} ${#s}
unset LC_ALL; LANG=POSIX; echo ${#s}; LC_CTYPE=C.UTF-8; echo ${#s}
