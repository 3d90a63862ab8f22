# trap -p SIG ...: only the traps of the signals named, in their order
# (nothing for one without a trap; an invalid name is reported, status
# 1), the same in a subshell; trap -l's table (no tab before a newline)
exec 2>err.txt
trap 'echo int' INT; trap 'echo usr' USR1; trap '' TERM; trap 'echo bye' EXIT
trap -p INT; echo "rc=$?"
trap -p USR1 TERM EXIT; echo "rc=$?"
trap -p HUP; echo "rc=$?"
trap -p 10 SIGINT sigint; echo "rc=$?"
trap -p NOPE; echo "rc=$?"
trap -p INT NOPE USR1; echo "rc=$?"
trap -p DEBUG ERR RETURN; echo "rc=$?"
trap 'echo d' DEBUG; trap -p DEBUG; trap - DEBUG
trap -p -- INT
(trap -p TERM INT)
trap -l | head -3 | od -c | head -3
trap -l | tail -1 | od -c
kill -l | sed -n 2p | od -c | tail -2
trap -p
trap - EXIT
exec 2>&1; sed 's/^.*line [0-9]*: //' err.txt
