awk 'BEGIN {
  for (i = 1; i <= 5; i++) {
    if (i % 2) printf "%d odd\n", i
    else printf "%d even\n", i
  }
  i = 0
  while (i < 3) i++
  print "i=" i
}'
