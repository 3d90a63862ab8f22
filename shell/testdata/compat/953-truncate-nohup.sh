# truncate -s with GNU's prefixes and suffixes, -c, -r, its errors; nohup
# where no stream is a terminal: the command's own output and status
echo abc > f; truncate -s 10 f; wc -c < f
truncate -s +5 f; wc -c < f; truncate -s -3 f; wc -c < f; truncate -s '<5' f; wc -c < f
truncate -s '>7' f; wc -c < f; truncate -s %4 f; wc -c < f; truncate -s /3 f; wc -c < f
truncate -s 1K g; truncate -s 2KB h; truncate -s 1KiB i; wc -c g h i | head -3
truncate -c -s 5 nope; ls nope 2>&1; truncate -r g f; wc -c < f; truncate -r g -s +1 f; wc -c < f
truncate f 2>&1; echo "status $?"; truncate -s x f 2>&1; echo "status $?"
truncate -s 5 2>&1; echo "status $?"; truncate -s 5 nodir/f 2>&1; echo "status $?"
head -c 3 f | od -c | head -1
nohup echo hi </dev/null; echo "status $?"
nohup sh -c 'exit 3' </dev/null; echo "status $?"
nohup nosuch </dev/null 2>&1; echo "status $?"
nohup 2>&1; echo "status $?"
