umask 022
printf '#!/bin/sh\necho "sh $0 $1"\n' > s; chmod +x s; ./s one; echo $?
printf 'echo plain "$1"\n' > p; chmod 700 p; ./p two; echo $?
printf 'echo nox\n' > n; ./n; echo $?
printf '#!/nonexistent/interp\necho\n' > bad; chmod +x bad; ./bad; echo $?
printf '#!/usr/bin/env bash\necho "env $#"\n' > e; chmod +x e; ./e a b; echo $?
printf '#!/bin/bash -e\nfalse\necho not-here\n' > be; chmod +x be; ./be; echo $?
mkdir bin; cp s bin/tool; PATH=$PWD/bin:$PATH tool three; echo $?
cp n bin/noexec; PATH=bin:$PATH noexec; echo $?
test -x s && echo sx; test -x n || echo nnx; [ -x bin ] && echo dx
find . -maxdepth 1 -type f -perm -u+x | sort
find . -maxdepth 1 -type f -perm 644 | sort
find . -maxdepth 1 -type f -perm /g+x | sort
