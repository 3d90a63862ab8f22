printf 'abc\nx' > c1; printf 'abc\ny' > c2
LC_ALL=C cmp c1 c2; echo rc=$?
LC_ALL=C.UTF-8 cmp c1 c2
LC_ALL= LANG=C.UTF-8 cmp c1 c2
LC_ALL= LC_MESSAGES=C.UTF-8 LANG=C cmp c1 c2
LC_ALL= LANG=C.UTF-8 LC_MESSAGES=POSIX cmp c1 c2
LC_ALL=en_US.UTF-8 cmp c1 c2
(unset LC_ALL LANG LC_MESSAGES; cmp c1 c2)
LC_ALL=C.UTF-8 cmp -b c1 c2
