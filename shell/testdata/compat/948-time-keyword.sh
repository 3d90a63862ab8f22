# the time keyword reports on the shell's stderr in $TIMEFORMAT's format
# (bash's by default, POSIX's with -p, nothing when it is empty), after
# the pipeline, whose status it keeps; the digits vary, so they are masked
{ time true; } 2>&1 | sed 's/[0-9]/N/g'
{ time -p sleep 0.01; } 2>&1 | sed 's/[0-9]/N/g'
{ time false | true; echo "status $?"; } 2>&1 | sed 's/[0-9]/N/g'
TIMEFORMAT='[%0R] [%0lR] [%%] [a%'
{ time sleep 0.01; } 2>&1
TIMEFORMAT='%3R %2lR %1E %R %U %S' ; { time true; } 2>&1 | sed 's/[0-9]/N/g'
TIMEFORMAT='%q'; { time true; echo "status $?"; } 2>&1 | sed 's/^.*bash: //'
TIMEFORMAT=; { time true; echo "nothing above"; } 2>&1
unset TIMEFORMAT; { time; } 2>&1
f() { time echo in-f; }; { f; } 2>&1 | sed 's/[0-9]/N/g'
