printf '%s-%s\n' a b c d
printf '%5d|%-5s|%05.1f\n' 42 ab 3.14159
printf '%x %o %X %e\n' 255 8 255 1234.5
