# shells started by the shell are processes of their own: bash -c's $$
# is its own and its $PPID the caller's; kill from a nested shell reaches
# the caller, whose trap runs once the nested shell has ended (the trap's
# status isolated); a background bash -c that traps a signal gets kill
# %N's after its command; a background job's shell ignores INT, trapped
# or not
trap 'echo "usr1 trap status=$?"; (exit 42)' USR1
sh -c 'kill -USR1 $PPID'; echo "after=$?"
[ "$(bash -c 'echo $PPID')" = "$$" ] && echo ppid-is-caller
[ "$(bash -c 'echo $$')" != "$$" ] && echo own-pid
bash -c 'echo $PPID' > ppid.txt & wait; [ "$(cat ppid.txt)" = "$$" ] && echo job-ppid; rm ppid.txt
f() { sh -c "kill -USR1 $$"; echo in f; }; f; echo after f
(sh -c "kill -USR1 $$"; echo sub); echo main
trap 'false; echo "$LINENO err"' ERR; sh -c "kill -USR1 $$"; trap - ERR USR1
ready() { while [ ! -e ready ]; do sleep 0.01; done; rm ready; }
bash -c 'trap "echo got usr1" USR1; : > ready; sleep 1; echo end' & ready; kill -USR1 %1; wait %1; echo "job st=$?"
bash -c 'trap "echo on exit" EXIT; : > ready; sleep 1' & ready; kill -INT $!; wait; echo "int st=$?"
bash -c 'trap "echo int" INT; : > ready; sleep 1' & ready; kill -INT $!; wait; echo "bg int st=$?"
trap 'echo hup' HUP; sh -c 'kill -HUP $PPID'; echo done
# exec -a NAME: the nested shell's $0 (and its messages' prefix)
(exec -a FOOPROC sh -c 'echo $0'); (exec -a FOO bash -c 'echo $0; bash -c "echo \$0"')
