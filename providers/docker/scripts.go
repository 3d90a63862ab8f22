package docker

// The container's main process and every command's wrapper are small POSIX sh
// scripts, so any image with /bin/sh and the basic utilities (date, cat,
// sleep, kill, mv, mkdir) works: busybox and Debian alike.
//
// State lives in stateDir inside the container:
//
//	idle        seconds each use pushes the end back by (SetTimeout's d)
//	deadline    unix time the sandbox ends at unless used again
//	run/T.pid   pid (= process group) of command T while it runs
//	run/T.limit unix time past which the watchdog kills command T
//
// Every write goes to a temp file and is renamed over, so a reader never sees
// half a number; a missing or garbled deadline reads as "not yet".

const stateDir = "/tmp/.sbx"

// watchdogScript is the container's main process (under tini). Once a second
// it kills commands past their limit, keeps the deadline ahead of running
// commands, and exits — stopping and, with auto-remove, deleting the
// container — when idle past the deadline or past the hard end.
// Arguments: stateDir idleSeconds hardEndUnix.
const watchdogScript = `S=$1; IDLE=$2; HARD=$3
mkdir -p "$S/run"
put() { echo "$2" > "$S/$1.tmp" && mv "$S/$1.tmp" "$S/$1"; }
[ -e "$S/idle" ] || put idle "$IDLE"   # a SetTimeout may have come first
[ -e "$S/deadline" ] || put deadline $(( $(date +%s) + IDLE ))
while :; do
  t=$(date +%s); busy=0
  for p in "$S"/run/*.pid; do
    [ -e "$p" ] || continue
    tok=${p%.pid}; pid=$(cat "$p" 2>/dev/null)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      busy=1
      lim=$(cat "$tok.limit" 2>/dev/null)
      case "$lim" in ''|*[!0-9]*) ;; *) if [ "$t" -ge "$lim" ]; then : > "$tok.timedout"; kill -KILL -"$pid" 2>/dev/null; fi;; esac
    else
      rm -f "$p" "$tok.limit" "$tok.timedout"
    fi
  done
  i=$(cat "$S/idle" 2>/dev/null); case "$i" in ''|*[!0-9]*) i=$IDLE;; esac
  [ "$busy" = 1 ] && put deadline $(( t + i ))
  d=$(cat "$S/deadline" 2>/dev/null); case "$d" in ''|*[!0-9]*) d=$(( t + 1 ));; esac
  if [ "$t" -ge "$HARD" ]; then echo "agentenkit sandbox: hard end reached"; exit 0; fi
  if [ "$busy" = 0 ] && [ "$t" -ge "$d" ]; then echo "agentenkit sandbox: idle past its deadline"; exit 0; fi
  sleep 1
done`

// wrapperScript runs one command: it records its pid (the exec's process
// group, which runc makes it lead) and an in-container limit, pushes the
// deadline back at the start and the end, and runs the command with bash
// where the image has it, else sh.
// Arguments: stateDir token limitSeconds command.
const wrapperScript = `S=$1; T=$2; L=$3; C=$4
mkdir -p "$S/run"
echo $$ > "$S/run/$T.pid.tmp" && mv "$S/run/$T.pid.tmp" "$S/run/$T.pid"
echo $(( $(date +%s) + L )) > "$S/run/$T.limit"
push() { i=$(cat "$S/idle" 2>/dev/null); case "$i" in ''|*[!0-9]*) return;; esac; echo $(( $(date +%s) + i )) > "$S/deadline.$T" && mv "$S/deadline.$T" "$S/deadline"; }
push
if command -v bash >/dev/null 2>&1; then bash -c "$C" </dev/null; else sh -c "$C" </dev/null; fi
rc=$?
push
rm -f "$S/run/$T.pid" "$S/run/$T.limit"
exit $rc`

// killScript kills the process group of command T.
// Arguments: stateDir token.
const killScript = `p=$(cat "$1/run/$2.pid" 2>/dev/null) && [ -n "$p" ] && kill -KILL -"$p" 2>/dev/null; exit 0`

// touchScript sets the idle seconds (when given) and pushes the deadline to
// now + idle. Arguments: stateDir [idleSeconds].
// The watchdog may not have made stateDir yet right after the start, so the
// script makes it itself.
const touchScript = `S=$1
mkdir -p "$S/run"
if [ -n "$2" ]; then echo "$2" > "$S/idle.t$$" && mv "$S/idle.t$$" "$S/idle"; fi
i=$(cat "$S/idle" 2>/dev/null); case "$i" in ''|*[!0-9]*) exit 0;; esac
echo $(( $(date +%s) + i )) > "$S/deadline.t$$" && mv "$S/deadline.t$$" "$S/deadline"`

// listScript prints the entries of folder $1 as "type size mtime name\0"
// (type d or f), or exits 2 when it is not a folder.
const listScript = `cd "$1" 2>/dev/null || exit 2
for f in * .[!.]* ..?*; do
  [ -e "$f" ] || [ -L "$f" ] || continue
  if [ -d "$f" ] && [ ! -L "$f" ]; then t=d; s=0; else t=f; s=$(stat -c %s "$f" 2>/dev/null || echo 0); fi
  m=$(stat -c %Y "$f" 2>/dev/null || echo 0)
  printf '%s %s %s %s\0' "$t" "$s" "$m" "$f"
done`
