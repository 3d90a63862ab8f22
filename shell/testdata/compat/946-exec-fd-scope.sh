# exec inside a redirected { } group or function keeps the fds it opens
# (only the group's own redirections are put back); a failed exec keeps
# none of its redirections; a command's n>&- of an exec'd fd is undone;
# closing one of two dups of a file leaves the other writing to it
{ exec 3>f1; } >/dev/null; echo one >&3; exec 3>&-; cat f1
g() { exec 4>f2; }; g 2>/dev/null; echo two >&4; exec 4>&-; cat f2
exec 5>f3; { exec 5>f4; echo inner >&5; } 5>/dev/null; echo outer >&5; exec 5>&-; cat f3; cat f4
exec 6>f5 >. ; echo "exec: $?"; echo six >&6 || echo "no fd 6"
exec 7>f6; : 7>&-; echo seven >&7; exec 7>&-; cat f6
exec 8>f7 9>&8; exec 8>&-; echo nine >&9; exec 9>&-; cat f7
exec {fd}>f8; echo var >&$fd; exec {fd}>&-; cat f8; echo "closed: $( { echo x >&$fd; } 2>&1 | wc -l)"
# a background job keeps the files of the redirections it started under
# open after the command that made it ended (the function's >f9, an fd
# the shell closed meanwhile)
bgf() { { sleep 0.1; echo late; } & }; bgf >f9; echo now; wait; cat f9
exec 3>f10; (sleep 0.1; echo bg >&3) & exec 3>&-; wait; cat f10
