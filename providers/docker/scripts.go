package docker

import "strconv"

// The container's main process and every command's wrapper are small POSIX sh
// scripts, so any image with /bin/sh and the basic utilities (date, cat,
// sleep, kill, mv, mkdir, tr, sed, grep) works: busybox and Debian alike.
//
// The watchdog runs as root; its state lives in stateDir, a folder only root
// can enter, so a command of the sandbox's user can neither read nor change
// it, nor signal the watchdog:
//
//	tick        the fifo the watchdog listens on (see watchdogScript)
//	fifo        there when it does
//	deadline    unix time the sandbox ends at unless used again
//	idle        seconds each use pushes the end back by (SetTimeout's d):
//	            read at the start, and where there is no fifo
//
// What counts as a use is a fact of the kernel, not a file a command could
// forge: an exec's first process is the only kind whose parent is outside
// the container (ppid 0); a process a command leaves behind is adopted by
// init (ppid 1). While one runs, the sandbox is busy. A reader may find the
// deadline file empty for an instant while the watchdog rewrites it: a
// missing or garbled deadline reads as "not yet" (the host's reaper bounds
// it).

// stateDir is the watchdog's root-only folder.
const stateDir = "/run/agentenkit"

// commandEnv names the environment variable every process of a command
// inherits: the command's token, by which a timeout finds the processes that
// left its process group (setsid, double forks).
const commandEnv = "AGENTENKIT_COMMAND"

// watchdogScript is the container's main process (under tini, as root). Once
// a second it kills execs past their in-container limit, keeps the deadline
// ahead of running execs, and exits — stopping and, with auto-remove,
// deleting the container — when idle past the deadline or past the hard end.
// Arguments: stateDir idleSeconds hardEndUnix.
//
// Where the shell has "read -t" (busybox ash, bash), the idle time and the
// deadline live in the watchdog's own variables: a use or SetTimeout is a
// line written into the fifo tick (a number sets the idle time; any line
// pushes the deadline back), which only root can open, and the deadline
// file is only the watchdog's report of its deadline, rewritten every
// second, so nothing written over the state files (by the engine's file
// copy, which is root) moves the end for more than a second. Its loop
// forks nothing then, so a fork bomb that holds every pid cannot end it (a
// shell that cannot fork exits): the time is /proc/uptime plus the offset to
// unix time taken at the start, the pause is the fifo's read timing out,
// and each exec's limit is on the first line of its script (limitLine),
// which the read builtin gets from /proc/P/cmdline. Where the shell lacks
// "read -t" (dash), the idle time and deadline are files, and it falls back
// to sleep and tr.
const watchdogScript = `S=$1; IDLE=$2; HARD=$3
mkdir -p "$S" && chmod 700 "$S"
umask 077
rm -f "$S/tick" "$S/fifo"; mkfifo "$S/tick" && exec 3<>"$S/tick"
read -r up x < /proc/uptime; OFF=$(( $(date +%s) - ${up%.*} ))
now() { read -r up x < /proc/uptime; t=$(( ${up%.*} + OFF )); }
now
i=; [ -e "$S/idle" ] && read -r i < "$S/idle"   # a SetTimeout may have come first
case "$i" in ''|*[!0-9]*) i=$IDLE; echo "$i" > "$S/idle";; esac
d=$(( t + i ))
read -t 0 x <&3 2>/dev/null; [ $? = 2 ] && fifo= || fifo=1
echo "$d" > "$S/deadline"
[ -n "$fifo" ] && : > "$S/fifo"
seen=" "
while :; do
  now; busy=0; next=" "
  for f in /proc/[0-9]*/stat; do
    read -r st < "$f" 2>/dev/null || continue
    set -- ${st##*") "}
    [ "$2" = 0 ] || continue
    p=${f#/proc/}; p=${p%/stat}
    [ "$p" = 1 ] && continue
    busy=1
    case "$seen" in
    *" $p:"*) l=${seen#*" $p:"}; l=${l%% *} ;;
    *)
      l=; read -r l < "/proc/$p/cmdline" 2>/dev/null
      case "$l" in *"# agentenkit-limit="*) ;; *) l=$(tr '\0' '\n' < "/proc/$p/cmdline" 2>/dev/null | grep '^# agentenkit-limit=');; esac
      l=${l#*"# agentenkit-limit="}; l=${l%%[!0-9]*}
      case "$l" in ''|*[!0-9]*) l=0;; *) l=$(( t + l ));; esac ;;
    esac
    next="$next$p:$l "
    [ "$l" != 0 ] && [ "$t" -ge "$l" ] && kill -KILL -"$p" 2>/dev/null
  done
  seen=$next
  if [ -z "$fifo" ]; then
    i=; read -r i < "$S/idle" 2>/dev/null; case "$i" in ''|*[!0-9]*) i=$IDLE;; esac
    d=; read -r d < "$S/deadline" 2>/dev/null; case "$d" in ''|*[!0-9]*) d=$(( t + 1 ));; esac
  fi
  [ "$busy" = 1 ] && d=$(( t + i ))
  echo "$d" > "$S/deadline"
  if [ "$t" -ge "$HARD" ]; then echo "agentenkit sandbox: hard end reached"; exit 0; fi
  if [ "$busy" = 0 ] && [ "$t" -ge "$d" ]; then echo "agentenkit sandbox: idle past its deadline"; exit 0; fi
  if [ -z "$fifo" ]; then sleep 1
  elif read -t 1 m <&3; then
    case "$m" in ''|*[!0-9]*) ;; *) i=$m;; esac
    now; d=$(( t + i )); echo "$d" > "$S/deadline"
  fi
done`

// limitLine is the first line of every exec's script: the in-container time
// limit the watchdog reads.
func limitLine(secs int) string {
	return "# agentenkit-limit=" + strconv.Itoa(secs) + "\n"
}

// setupScript runs once as root right after the start: it waits (up to 5 s)
// for the watchdog to be ready, gives the sandbox's user (uid $2, unless 0)
// an entry in /etc/passwd and /etc/group when the image has none, and the
// work folder $1.
const setupScript = `W=$1; U=$2
n=0; while [ ! -e /run/agentenkit/deadline ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n+1)); done   # the watchdog's start
if [ "$U" != 0 ]; then
  sh=/bin/sh; [ -x /bin/bash ] && sh=/bin/bash
  grep -q "^[^:]*:[^:]*:$U:" /etc/passwd 2>/dev/null || echo "user:x:$U:$U:user:$W:$sh" >> /etc/passwd
  grep -q "^[^:]*:[^:]*:$U:" /etc/group 2>/dev/null || echo "user:x:$U:" >> /etc/group
fi
mkdir -p "$W" && [ "$W" != / ] && chown "$U:$U" "$W"
exit 0`

// cmdDir is where a command's wrapper records its pid, by token, for the
// kill: /dev/shm where the engine mounted it (every container by default),
// else /tmp. Both scripts use it.
const cmdDir = `D=/dev/shm; [ -d "$D" ] && [ -w "$D" ] || D=/tmp`

// wrapperScript runs one command as the sandbox's user: it records its pid
// (the exec's process group, which runc makes it lead) for the kill, and
// runs the command with bash where the image has it, else sh. Its
// environment carries the command's token (commandEnv). Arguments: token
// command; limitLine goes first.
const wrapperScript = `T=$1; C=$2
` + cmdDir + `
echo $$ > "$D/.agentenkit-$T"
if command -v bash >/dev/null 2>&1; then bash -c "$C" </dev/null; else sh -c "$C" </dev/null; fi
rc=$?
rm -f "$D/.agentenkit-$T"
exit $rc`

// killScript ends every process of command T, run as the command's user:
// first its process group (shell builtins only, so it works while a fork
// bomb holds every pid), then every process whose environment still carries
// the token — those that moved to a session of their own. Each found is
// stopped before any is killed, so none can fork away meanwhile.
// Arguments: token.
const killScript = `T=$1
` + cmdDir + `
if read -r p < "$D/.agentenkit-$T" 2>/dev/null; then kill -STOP -"$p" 2>/dev/null; kill -KILL -"$p" 2>/dev/null; fi
found=
for pass in 1 2; do
  for e in /proc/[0-9]*/environ; do
    q=${e#/proc/}; q=${q%/environ}
    [ "$q" = $$ ] && continue
    if tr '\0' '\n' < "$e" 2>/dev/null | grep -qx "` + commandEnv + `=$T"; then kill -STOP "$q" 2>/dev/null; found="$found $q"; fi
  done
done
for q in $found; do kill -KILL "$q" 2>/dev/null; done
rm -f "$D/.agentenkit-$T"
exit 0`

// touchScript (as root) sets the idle seconds (when given) and pushes the
// deadline to now + idle: through the watchdog's fifo where it listens on
// one, else in the state files. Arguments: stateDir [idleSeconds].
// With idleSeconds (SetTimeout) it returns once the deadline file shows the
// new end (within 2 s of now + idle, waiting up to 5 s for the watchdog to
// read the fifo), so that a GetInfo right after reads it. The watchdog may
// not have made stateDir yet right after the start, so the script makes it
// itself.
const touchScript = `S=$1
if [ -e "$S/fifo" ] && [ -p "$S/tick" ]; then
  echo "${2:--}" > "$S/tick"
  [ -n "$2" ] || exit 0
  w=$(( $(date +%s) + $2 )); n=0
  while [ $n -lt 50 ]; do
    d=; read -r d < "$S/deadline" 2>/dev/null
    case "$d" in ''|*[!0-9]*) ;; *) [ "$d" -ge $(( w - 2 )) ] && [ "$d" -le $(( w + 2 )) ] && exit 0;; esac
    sleep 0.1; n=$((n+1))
  done
  exit 0
fi
mkdir -p "$S" && chmod 700 "$S"
umask 077
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
