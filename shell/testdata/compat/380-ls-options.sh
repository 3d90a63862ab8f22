ls -1 src
ls -A | head -3
ls -d */
