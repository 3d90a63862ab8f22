getconf PAGESIZE; getconf PAGE_SIZE; getconf LONG_BIT; getconf ARG_MAX; getconf PATH_MAX /; getconf NAME_MAX /
getconf NOPE; echo $?
n=$(nproc); [ "$n" -ge 1 ] && echo nproc-ok
flock lockfile echo under-lock; flock -n lockfile -c 'echo c-form'; flock -w 1 lockfile true; echo $?
[ -f lockfile ] && echo lockfile-made
sleep 0.2; sleep .1; echo slept
timeout 0.3 sleep 2; echo $?
timeout 2 true; echo $?
yes | head -3; yes ab | head -2
readlink -f ./x/../a; realpath -m a/../b/c; mkdir -p r/s; realpath r/s/..
printf ab > c1; printf ac > c2; cmp -s c1 c2; echo $?; cmp c1 c1; echo $?
