# a ${x-w} operator with an empty word inside double quotes is one empty
# field, as any quoted word ("${x:-}" is how scripts under set -u test a
# variable: python's venv activate does `[ -n "${_OLD_VIRTUAL_PATH:-}" ]`);
# "${@+w}" with no parameters and "${a[@]+w}" of an empty array are none
n() { echo "$#"; }
a=(); b=(1); y=
n "${x:-}"; n "${x-}"; n "${x:=}"; unset x; n "${x+}"; n "${x:+}"
n "${y:+}" "${y+}" "${y-}" "${y:-}"
n "${a[@]+}"; n "${a[@]+x}"; n "${a[*]+}"; n "${a[@]:-}" "${a[@]-}" "${a[@]:+}"
n "${b[@]+}"; n "${b[@]:+}"; n "pre${a[@]+}post"
set --; n "${@+}"; n "${*+}"; n "${@:-}"
set -- p q; n "${@:+}" "${@+}"
n ${x:-} ${x+} "" ${a[@]:-}
[ -n "${unset_var:-}" ] && echo "not empty" || echo "empty"
f() { if [ -n "${OLD:-}" ]; then PATH="${OLD:-}"; unset OLD; fi; }
f; OLD="$PATH"; saved=$PATH; PATH="/venv/bin:$PATH"; f; [ "$PATH" = "$saved" ] && echo "PATH restored"
