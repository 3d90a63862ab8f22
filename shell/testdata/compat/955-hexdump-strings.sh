# hexdump's default and canonical (-C) displays, "*" for repeated lines
# unless -v, -n, -s, several files, errors; strings' runs of printable
# characters, -n, -t, -f
printf 'hello world, this is a test of hexdump\000\001\002' > f
head -c 64 /dev/zero >> f; printf 'tail' >> f
hexdump -C f; hexdump f; hexdump -C -n 20 f; hexdump -C -s 10 -n 8 f
hexdump -v -C f | sed -n 4,6p; printf '' | hexdump -C; echo "status $?"
printf 'ab' | hexdump -C; printf 'abc' | hexdump
printf 'hello world' > g; hexdump -s 20 -C g; hexdump -s 3 -C g g
hexdump -C g nosuch 2>&1; echo "status $?"; hexdump nosuch 2>&1; echo "status $?"
printf 'x' | hexdump -s 1 2>&1; echo "status $?"
strings f; printf 'abc\000defgh\000ij\000 long\tstring here\n' | strings
printf 'abc\000defgh\000' | strings -n 3; strings -t x f; strings -t d -f f g
strings nosuch 2>&1; echo "status $?"
