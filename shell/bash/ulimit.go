package bash

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// rlimInf is RLIM_INFINITY: a limit that is "unlimited".
const rlimInf = math.MaxUint64

// rlimit is one resource limit of a shell, as setrlimit keeps it: in the
// resource's own unit (bytes, seconds, a count), soft below hard.
type rlimit struct{ soft, hard uint64 }

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
func (r *Runner) limit(flag byte) rlimit {
	if l, ok := r.limits[flag]; ok {
		return l
	}
	for _, u := range ulimitTable {
		if u.flag == flag {
			return rlimit{u.soft, u.hard}
		}
	}
	return rlimit{rlimInf, rlimInf}
}

// tooManyFiles reports whether the open files limit leaves no descriptor
// for a new file: 0, 1 and 2 are open, so a new one is at least 3.
func (r *Runner) tooManyFiles() bool {
	l, ok := r.limits['n']
	return ok && l.soft <= 3
}

// ulimitBuiltin is ulimit [-SHa...] [limit]: it shows and sets the
// shell's limits as setrlimit would (a soft limit above the hard one is
// EINVAL, raising a hard one EPERM); subshells inherit them. The sandbox
// enforces its own limits: of these only open files (-n) has an effect,
// on the shell's redirections.
func ulimitBuiltin(r *Runner, args []string) int {
	args = args[1:]
	type op struct {
		flag  byte
		value string
		set   bool
	}
	var ops []op
	soft, hard, all := false, false, false
	usage := func() int {
		fmt.Fprintln(r.stderr(), "ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]")
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
func (r *Runner) printLimit(u ulimitRes, hard, long bool) {
	l := r.limit(u.flag)
	v := l.soft
	if hard {
		v = l.hard
	}
	s := "unlimited"
	if v != rlimInf {
		s = strconv.FormatUint(v/u.factor, 10)
	}
	if !long {
		fmt.Fprintln(r.stdout(), s)
		return
	}
	unit := fmt.Sprintf("(%s, -%c)", u.unit, u.flag)
	if u.unit == "" {
		unit = fmt.Sprintf("(-%c)", u.flag)
	}
	fmt.Fprintf(r.stdout(), "%-20s %19s %s\n", u.name, unit, s)
}

// setLimit sets u's soft limit (soft), hard limit (hard) or both
// (neither) to value: a number in u's unit, "unlimited", "soft" or
// "hard".
func (r *Runner) setLimit(u ulimitRes, value string, soft, hard bool) int {
	if !soft && !hard {
		soft, hard = true, true
	}
	cur := r.limit(u.flag)
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
	if r.limits == nil {
		r.limits = map[byte]rlimit{}
	}
	r.limits[u.flag] = next
	return 0
}

// hashBuiltin is hash [-r] [name...]: -r forgets the remembered command
// paths; a name is looked up in $PATH and remembered ("hash: NAME: not
// found", status 1, when it is not there). Listing the table prints
// nothing when it is empty, as bash's "hash table empty" goes to a
// terminal only.
func hashBuiltin(r *Runner, args []string) int {
	args = args[1:]
	reset := false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		if args[0] != "-r" {
			r.errf("hash: %s: invalid option", args[0][:2])
			fmt.Fprintln(r.stderr(), "hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]")
			return 2
		}
		r.hash, reset = nil, true
		args = args[1:]
	}
	status := 0
	for _, name := range args {
		if _, ok := builtins[name]; ok || strings.Contains(name, "/") {
			continue
		}
		if _, ok := r.funcs[name]; ok {
			continue
		}
		pathList, _ := r.getVar("PATH")
		if pathList != r.hashPath {
			r.hash, r.hashPath = nil, pathList
		}
		k, w := "", ""
		if r.opts.Lookup != nil {
			k, w = r.opts.Lookup(name, pathList, r.dir)
		}
		if k != "file" {
			r.errf("hash: %s: not found", name)
			status = 1
			continue
		}
		r.remember(name, w, 0)
	}
	if len(args) == 0 && !reset {
		if len(r.hash) == 0 {
			fmt.Fprintln(r.stderr(), "hash: hash table empty")
			return 0
		}
		fmt.Fprintln(r.stdout(), "hits\tcommand")
		for _, name := range sortedKeys(r.hash) {
			e := r.hash[name]
			fmt.Fprintf(r.stdout(), "%4d\t%s\n", e.hits, e.path)
		}
	}
	return status
}

// hashEntry is a remembered command path and how often it ran from it.
type hashEntry struct {
	path string
	hits int
}

func (r *Runner) remember(name, path string, hits int) {
	if r.hash == nil {
		r.hash = map[string]*hashEntry{}
	}
	r.hash[name] = &hashEntry{path, hits}
}
