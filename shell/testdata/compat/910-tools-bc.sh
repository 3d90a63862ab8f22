echo 'scale=3; 1/3' | bc
echo '2^100' | bc
echo 's(1); c(1); a(1); l(2); e(1); j(1, 2)' | bc -l
echo 'obase=16; 255; ibase=16; obase=A; FF' | bc
bc <<'END'
define fact(n) {
  if (n <= 1) return 1
  return n * fact(n-1)
}
fact(30)
for (i = 0; i < 3; i++) print i, " squared is ", i^2, "\n"
END
printf 'x = 5\nx * 2\n' > prog.bc; bc prog.bc </dev/null; echo rc=$?
echo '1/0; 2+' | bc 2>&1; echo rc=$?
echo '3^400' | BC_LINE_LENGTH=30 bc
echo 'quit' | bc; echo rc=$?
bc nosuch.bc </dev/null 2>&1; echo rc=$?
x=$(echo "scale=2; 7/3" | bc); echo "x=$x"
echo "sqrt(2)" | bc -l | cut -c1-10
