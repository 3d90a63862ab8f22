awk 'BEGIN {s = sprintf("%05d|%s", 42, "x"); print s; if (match("foobar123", /[0-9]+/)) print RSTART, RLENGTH}'
