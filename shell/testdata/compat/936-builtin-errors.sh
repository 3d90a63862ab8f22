# builtins' error texts and statuses (stderr, without bash's $0, printed
# at the end): set -o and shopt -o with a bad name, cd -P through a link
# and cd //, kill and jobs -x on job specs, /dev/fd/N not open, printf -v
exec 2>err.txt
set -o bogus; echo "set -o $?"; set +o bogus; echo "set +o $?"
shopt -s -o bogus; echo "shopt -s -o $?"; shopt -o bogus; echo "shopt -o $?"; shopt -s bogus; echo "shopt -s $?"
mkdir -p a/b x && ln -s "$PWD/a/b" x/link
cd -P x/link/..; echo "${PWD#"$HOME"}"; cd "$HOME"
cd -L x/link/..; echo "${PWD#"$HOME"}"; cd "$HOME"
cd x/link; cd -P ..; echo "${PWD#"$HOME"}"; cd "$HOME"
cd -P x/link/../../x; echo "$? ${PWD#"$HOME"}"; cd "$HOME"
cd //; echo "$PWD"; pwd; cd ///; pwd; cd "/$HOME"; pwd; cd a; pwd; cd -P ..; pwd; cd "$HOME"
cd ''; echo "cd '' $?"; (unset OLDPWD; cd -; echo "cd - $?")
true & wait $!; kill %1; echo "kill %1 $?"; kill %5; echo "kill %5 $?"; kill; echo "kill $?"
kill -s; echo "kill -s $?"; kill -s BAD 1; echo "kill -s BAD $?"; kill abc; echo "kill abc $?"
while :; do :; done &
jobs -x echo %1 x > f; read p rest < f; case $p in [1-9]*) echo "jobs -x pgid $rest" ;; esac
jobs -x false; echo "jobs -x false $?"; jobs -lx echo; echo "jobs -lx $?"; kill %1 %3; echo "kill %1 %3 $?"
cat < /dev/fd/7; echo "< $?"; cat /dev/fd/7; echo "cat $?"; echo x > /dev/fd/7; echo "> $?"
exec 7>g; echo y > /dev/fd/07; echo "07 $?"; exec 7>&-; (exec 1>&-; echo z > /dev/stdout); echo "stdout $?"
printf -v; echo "printf -v $?"; printf -v 1a x; echo "printf -v 1a $?"; readonly r; printf -v r x; echo "readonly $?"
exec {fd}>h; exec {fd}>&-; exec {x}>&-; echo "{x}>&- $?"
disown %9; echo "disown %9 $?"; disown -x; echo "disown -x $?"; wait -x; echo "wait -x $?"; fg; echo "fg $?"; bg; echo "bg $?"; cd -@ .; echo "cd -@ $?"
exec 2>&1; sed 's/^[^ :]*bash: //' err.txt
