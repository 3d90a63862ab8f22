printf 'hello\n' > a; printf 'a\r\nb\r\n' > c; printf 'h\xc3\xa9\n' > u; printf 'no newline' > nn
printf '#!/bin/sh\necho\n' > s; chmod +x s; printf '#!/usr/bin/env python3\nprint()\n' > p; printf '#!/bin/bash\n' > bb
: > e; mkdir d; ln -s a l; printf '{"a": [1, 2]}\n' > j.json; printf '\x00\x01\x02\x03' > bin
printf '%%PDF-1.4\n' > x.pdf; printf 'GIF89a\x02\x00\x03\x00' > g.gif
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x03\x00\x00\x00\x02\x08\x06\x00\x00\x00' > i.png
printf '<?xml version="1.0"?>\n<a/>\n' > x.xml; printf '<!DOCTYPE html>\n<html></html>\n' > h.html
echo hi | gzip -n > z.gz
printf '%0400d\n' 0 > long
file a c u nn s p bb e d l j.json bin x.pdf g.gif i.png x.xml h.html z.gz long
file -b a s
file --mime-type a u bin
file -i a u bin
file missing; echo $?
