# ${x@op} on unset, declared-only, indirect and array parameters
a=(1 "x y"); declare -A B=([k]=v ["a b"]=2); s=str
declare -a ea; declare -i ni; declare x
for o in Q E a A K k U u L; do eval "echo \"$o[\${undef@$o}] [\${ea@$o}] [\${ni@$o}] [\${x@$o}]\""; done
printf '<%s>' "${a[@]@K}" "${B[@]@K}" "${a[@]@A}" "${a[*]@k}" "${B@K}" "${B@A}" ${a@A}; echo
declare -ix n=3; echo "${n@A}" "${s[@]@A}" "${a[1]@A}"
r='a[1]'; echo "${!r@Q}" "${!r@a}"; echo "[${!B[@]@Q}]"
echo "${u:-'q'}" "${u:="w 'x'"}" "$u" ${v:-'a  b'}
(set -u; echo ${undef@Q}); echo rc=$?
x=$(set -u; echo ${undef[0]@a}); echo rc=$?
