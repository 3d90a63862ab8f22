# an offset or length of a ${x:off:len} slice that is blank or empty is
# 0 in bash (only ${x:}, nothing after the one colon, is an error)
a=(a b c d); s=abcdef
echo "[${a[@]: }] [${a[@]: : }] [${a[@]:: }] [${a[@]::}] [${a[@]:1:}] [${a[@]:1: }]"
echo "[${s: }] [${s::}] [${s:2:}] [${s: :3}] [${s:	}]"
set -- x y z
echo "[${@::}] [${@:0:}] [${*:1: }]"
n=; echo "[${s:n}] [${s:1:n}] [${s:$n:2}]"
