# builtins' option errors, as bash's internal_getopt words them: an
# unknown letter ("NAME: -Z: invalid option" and the usage line, status
# 2), a missing value ("option requires an argument"), -- ending the
# options and a lone - as an operand (stderr printed at the end)
exec 2>err.txt
for b in type command hash help jobs disown wait cd pwd shopt read declare typeset export readonly; do
  "$b" -Z; echo "$b -Z $?"
done
type -a- echo; echo "type -a- $?"; type -: echo; echo "type -: $?"; type -tZ echo; echo "type -tZ $?"
type -t -- echo; echo "type -- $?"; type -t - ; echo "type - $?"; type --x; echo "type --x $?"
command -vZ echo; echo "command -vZ $?"; command -v -- echo; echo "command -v -- $?"
hash -p; echo "hash -p $?"; read -d; echo "read -d $?"; read -rd; echo "read -rd $?"; wait -p; echo "wait -p $?"
read -r -- v <<< "a b"; echo "read -- $? $v"; read -d: v <<< "x:y"; echo "read -d: $? $v"
read -rZ v <<< x; echo "read -rZ $?"; read -u; echo "read -u $?"
declare +Z; echo "declare +Z $?"; declare -+; echo "declare -+ $?"; declare -x -Z v; echo "declare -x -Z $?"
declare -- d=1; echo "declare -- $? $d"; export +Z; echo "export +Z $?"; readonly +Z; echo "readonly +Z $?"
f() { local -Z; echo "local -Z $?"; local +Z; echo "local +Z $?"; local -- l=2; echo "local -- $? $l"; }; f
export -- e=3; echo "export -- $? $e"; readonly -- r=4; echo "readonly -- $? $r"
jobs -lZ; echo "jobs -lZ $?"; jobs --; echo "jobs -- $?"; disown -aZ; echo "disown -aZ $?"
wait -fZ; echo "wait -fZ $?"; wait --; echo "wait -- $?"
cd -LZ; echo "cd -LZ $?"; cd -- .; echo "cd -- $?"; pwd -LZ; echo "pwd -LZ $?"; pwd -- >/dev/null; echo "pwd -- $?"
shopt -sZ; echo "shopt -sZ $?"; shopt -q -- extglob; echo "shopt -- $?"
help -dZ; echo "help -dZ $?"
hash -p /bin/cat kitty; hash -t kitty; hash -l; hash -t kitty nope; echo "hash -t $?"; hash -d kitty; echo "hash -d $?"
hash -d kitty; echo "hash -d again $?"; hash -t; echo "hash -t $?"; hash -d; echo "hash -d $?"; hash -l; echo "hash -l $?"
true & p=$!; v=x; wait -p v "$p"; echo "wait -p $? $([ "$v" = "$p" ] && echo pid)"; wait -p v; echo "wait -p all $? ${v-unset}"
wait -p 1a; echo "wait -p 1a $?"; jobs -rx echo rx; jobs -x -r echo xr; jobs -px echo; echo "jobs -px $?"
unset -Z; echo "unset -Z $?"; ux=1; unset -f -v ux; echo "unset -f -v $? $ux"; uf() { echo uf; }; unset -n uf; uf; unset -fn uf; uf; echo "unset -fn $?"
eval -Z; echo "eval -Z $?"; eval -- echo eval ok; source -Z; echo "source -Z $?"; . --; echo ". -- $?"
umask -Z; echo "umask -Z $?"; umask -pS; (umask -- 077; umask); (exec -Z; echo "exec -Z $?"); (exec -a; echo "exec -a $?"); (exec -asomename echo exec ok)
mapfile -Z; echo "mapfile -Z $?"; readarray -Z; echo "readarray -Z $?"; mapfile -n x m; echo "mapfile -n x $?"; mapfile -O -1 m; echo "mapfile -O -1 $?"
mapfile -C; echo "mapfile -C $?"; mapfile -c 0 m; echo "mapfile -c 0 $?"; mapfile -u x m; echo "mapfile -u x $?"; readarray -u 9 m; echo "readarray -u 9 $?"
mapfile -td, -- m <<< "a,b,"; echo "mapfile -td, -- $? ${#m[@]} ${m[1]}"
printf -Z; echo "printf -Z $?"; printf -v 1a -x; echo "printf -v 1a -x $?"; printf -v pa -vpb X; echo "printf -v -v $? [${pa-unset}] $pb"; printf; echo "printf $?"
exec 2>&1; sed 's/^.*line [0-9]*: //' err.txt
