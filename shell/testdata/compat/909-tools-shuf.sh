seq 1 50 > n
shuf n | sort -n | md5sum
shuf -n 5 n | wc -l
shuf -n 100 n | wc -l
shuf -e a b c d | sort | tr '\n' ' '; echo
shuf -i 3-9 | sort -n | tr '\n' ' '; echo
shuf -i 1-3 -n 0 | wc -l
shuf -r -n 20 -e x y | sort -u | wc -l
shuf -r -i 5-5 -n 3 | tr '\n' ' '; echo
printf 'a\0b\0' | shuf -z | tr '\0' '\n' | sort
shuf -o out -e one; cat out
: | shuf | wc -c
shuf -i 9-3; echo $?
