# jobs with job specs: only the jobs named (%N, a number alone, %+, %-,
# %name, %?text), "no such job" (status 1) for a spec naming none or more
# than one; -l adds the process id, -p prints it, -s lists no job
sleep 5 & sleep 5 & echo x | sleep 6 & sleep 0.2
jobs %2; echo "jobs %2 $?"
jobs 1; echo "jobs 1 $?"
jobs %+ %-; echo "jobs %+ %- $?"
jobs %9; echo "jobs %9 $?"
jobs %1 %9 %3; echo "jobs %1 %9 %3 $?"
jobs %sleep; echo "jobs %sleep $?"
jobs %?echo; echo "jobs %?echo $?"
jobs %?5; echo "jobs %?5 $?"
jobs 99999; echo "jobs 99999 $?"
jobs -p %2 | wc -l
jobs -l %1 %2 | sed 's/^\(\[[0-9]\].\) *[0-9][0-9]* /\1 PID /'
jobs -s; echo "jobs -s $?"; jobs -s %1; echo "jobs -s %1 $?"; jobs -r %3
kill %1 %2 %3; wait
jobs %1; echo "after kill $?"
# wait -n id ...: the next of those jobs; an id naming none is "no such job"
echo x & wait -n $! bad 2>err.txt; echo "wait -n st=$?"; sleep 0.1 & wait -n %1 %9 2>>err.txt; echo "st=$?"
wait -n nope 2>>err.txt; echo "st=$?"; sed 's/^.*line [0-9]*: //' err.txt; rm err.txt
