// Package ulimit is bash's ulimit builtin over limits the shell keeps
// itself: it shows and sets them as setrlimit would (a soft limit above
// the hard one is EINVAL, raising a hard one EPERM). The sandbox enforces
// its own limits; of these the shell applies only open files (-n), to its
// redirections.
package ulimit

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// rlimInf is RLIM_INFINITY: a limit that is "unlimited".
const rlimInf = math.MaxUint64

// rlimit is one resource limit of a shell, as setrlimit keeps it: in the
// resource's own unit (bytes, seconds, a count), soft below hard.
type rlimit struct{ soft, hard uint64 }

// Limits are the limits a shell set, by ulimit's option letter; the
// others are the defaults of a typical Linux host. The zero value is
// ready to use; a subshell gets a copy.
type Limits map[byte]rlimit

// ulimitRes describes one resource ulimit knows: its option letter, its
// name and unit as ulimit -a prints them, the factor from ulimit's unit
// to the limit's, and the sandbox's limits at start.
type ulimitRes struct {
	flag       byte
	name, unit string
	factor     uint64
	soft, hard uint64
	readOnly   bool // pipe size: reported, not settable
}

// ulimitTable is in ulimit -a's order, with the limits of a typical
// Linux host (open files 1024 soft, 1048576 hard; core files 0 soft).
var ulimitTable = []ulimitRes{
	{'R', "real-time non-blocking time", "microseconds", 1, rlimInf, rlimInf, false},
	{'c', "core file size", "blocks", 512, 0, rlimInf, false},
	{'d', "data seg size", "kbytes", 1024, rlimInf, rlimInf, false},
	{'e', "scheduling priority", "", 1, 0, 0, false},
	{'f', "file size", "blocks", 512, rlimInf, rlimInf, false},
	{'i', "pending signals", "", 1, rlimInf, rlimInf, false},
	{'l', "max locked memory", "kbytes", 1024, 8192 * 1024, 8192 * 1024, false},
	{'m', "max memory size", "kbytes", 1024, rlimInf, rlimInf, false},
	{'n', "open files", "", 1, 1024, 1048576, false},
	{'p', "pipe size", "512 bytes", 512, 8 * 512, 8 * 512, true},
	{'q', "POSIX message queues", "bytes", 1, 819200, 819200, false},
	{'r', "real-time priority", "", 1, 0, 0, false},
	{'s', "stack size", "kbytes", 1024, 8192 * 1024, rlimInf, false},
	{'t', "cpu time", "seconds", 1, rlimInf, rlimInf, false},
	{'u', "max user processes", "", 1, rlimInf, rlimInf, false},
	{'v', "virtual memory", "kbytes", 1024, rlimInf, rlimInf, false},
	{'x', "file locks", "", 1, rlimInf, rlimInf, false},
}

// limit returns the shell's current limit of the resource flag.
func (ls Limits) limit(flag byte) rlimit {
	if l, ok := ls[flag]; ok {
		return l
	}
	for _, u := range ulimitTable {
		if u.flag == flag {
			return rlimit{u.soft, u.hard}
		}
	}
	return rlimit{rlimInf, rlimInf}
}

// TooManyFiles reports whether the open files limit leaves no descriptor
// for a new file: 0, 1 and 2 are open, so a new one is at least 3.
func (ls Limits) TooManyFiles() bool {
	l, ok := ls['n']
	return ok && l.soft <= 3
}

// shell is where one ulimit command writes and the limits it changes.
type shell struct {
	limits *Limits
	stdout io.Writer
	stderr io.Writer
	errf   func(format string, a ...any)
}

// Run is ulimit [-SHa...] [limit] (args without the command's name): it
// prints limits to stdout and sets them in *limits; errf reports an
// error (bash prefixes "bash: line N: "), usage goes to stderr. It
// returns the exit status.
func Run(limits *Limits, args []string, stdout, stderr io.Writer, errf func(format string, a ...any)) int {
	r := &shell{limits: limits, stdout: stdout, stderr: stderr, errf: errf}
	type op struct {
		flag  byte
		value string
		set   bool
	}
	var ops []op
	soft, hard, all := false, false, false
	usage := func() int {
		fmt.Fprintln(r.stderr, "ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]")
		return 2
	}
	// As bash's getopt with optional arguments: a limit letter takes the
	// next word when it is not an option.
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			switch {
			case c == 'H':
				hard = true
			case c == 'S':
				soft = true
			case c == 'a':
				all = true
			case strings.IndexByte("bcdefiklmnpqrstuvxPRT", c) >= 0:
				o := op{flag: c}
				if j == len(a)-1 && i+1 < len(args) && (len(args[i+1]) < 2 || args[i+1][0] != '-') {
					i++
					o.value, o.set = args[i], true
				}
				ops = append(ops, o)
			default:
				r.errf("ulimit: -%c: invalid option", c)
				return usage()
			}
		}
	}
	if i < len(args) {
		// An operand: the limit of the last option, or of -f.
		if len(ops) == 0 {
			ops = append(ops, op{flag: 'f'})
		}
		last := &ops[len(ops)-1]
		if !last.set {
			last.value, last.set = args[i], true
		}
	}
	if all {
		for _, u := range ulimitTable {
			r.printLimit(u, hard, true)
		}
		return 0
	}
	if len(ops) == 0 {
		ops = append(ops, op{flag: 'f'})
	}
	status := 0
	for _, o := range ops {
		u, ok := ulimitFor(o.flag)
		if !ok {
			// -b -k -P -T: resources Linux does not have
			r.errf("ulimit: -%c: invalid option", o.flag)
			return usage()
		}
		if !o.set {
			r.printLimit(u, hard && !soft, len(ops) > 1)
			continue
		}
		if st := r.setLimit(u, o.value, soft, hard); st != 0 {
			status = st
		}
	}
	return status
}

func ulimitFor(flag byte) (ulimitRes, bool) {
	for _, u := range ulimitTable {
		if u.flag == flag {
			return u, true
		}
	}
	return ulimitRes{}, false
}

// printLimit prints a limit alone or, with long, as ulimit -a does.
func (r *shell) printLimit(u ulimitRes, hard, long bool) {
	l := r.limits.limit(u.flag)
	v := l.soft
	if hard {
		v = l.hard
	}
	s := "unlimited"
	if v != rlimInf {
		s = strconv.FormatUint(v/u.factor, 10)
	}
	if !long {
		fmt.Fprintln(r.stdout, s)
		return
	}
	unit := fmt.Sprintf("(%s, -%c)", u.unit, u.flag)
	if u.unit == "" {
		unit = fmt.Sprintf("(-%c)", u.flag)
	}
	fmt.Fprintf(r.stdout, "%-20s %19s %s\n", u.name, unit, s)
}

// setLimit sets u's soft limit (soft), hard limit (hard) or both
// (neither) to value: a number in u's unit, "unlimited", "soft" or
// "hard".
func (r *shell) setLimit(u ulimitRes, value string, soft, hard bool) int {
	if !soft && !hard {
		soft, hard = true, true
	}
	cur := r.limits.limit(u.flag)
	var v uint64
	switch value {
	case "unlimited":
		v = rlimInf
	case "hard":
		v = cur.hard
	case "soft":
		v = cur.soft
	default:
		if value == "" || strings.Trim(value, "0123456789") != "" {
			r.errf("ulimit: %s: invalid number", value)
			return 1
		}
		n, err := strconv.ParseUint(value, 10, 64)
		if err != nil || n > math.MaxUint64/u.factor {
			r.errf("ulimit: %s: limit out of range", value)
			return 1
		}
		v = n * u.factor
	}
	next := cur
	if soft {
		next.soft = v
	}
	if hard {
		next.hard = v
	}
	switch {
	case u.readOnly || next.soft > next.hard:
		r.errf("ulimit: %s: cannot modify limit: Invalid argument", u.name)
		return 1
	case next.hard > cur.hard:
		r.errf("ulimit: %s: cannot modify limit: Operation not permitted", u.name)
		return 1
	}
	if *r.limits == nil {
		*r.limits = Limits{}
	}
	(*r.limits)[u.flag] = next
	return 0
}
