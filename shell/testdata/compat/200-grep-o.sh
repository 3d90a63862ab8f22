grep -o '[0-9][0-9]*ms' log.txt
grep -oE '[a-z]+@[a-z.]+' <<< "mail bob@x.org and al@y.com"
