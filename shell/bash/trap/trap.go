// Package trap is bash's trap builtin over the shell's table of traps,
// and Linux's signals as bash names, numbers and lists them (kill -l
// and trap -l; the text bash prints for a job a signal ended).
package trap

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Text is strsignal's text of the signals that end a process and
// that bash reports when it reaps a job they ended (not INT, PIPE, TERM).
var Text = map[string]string{
	"HUP": "Hangup", "QUIT": "Quit", "ILL": "Illegal instruction", "TRAP": "Trace/breakpoint trap",
	"ABRT": "Aborted", "BUS": "Bus error", "FPE": "Floating point exception", "KILL": "Killed",
	"USR1": "User defined signal 1", "SEGV": "Segmentation fault", "USR2": "User defined signal 2",
	"ALRM": "Alarm clock", "STKFLT": "Stack fault", "XCPU": "CPU time limit exceeded",
	"XFSZ": "File size limit exceeded", "VTALRM": "Virtual timer expired",
	"PROF": "Profiling timer expired", "IO": "I/O possible", "PWR": "Power failure", "SYS": "Bad system call",
}

// IgnoredByDefault are the signals whose default action is to ignore
// them: kill sends them to a job without ending it.
var IgnoredByDefault = map[string]bool{"CHLD": true, "CONT": true, "URG": true, "WINCH": true}

// Run is trap [-lp] [[action] signal ...] (args without the command's
// name; trap -p SIG ... prints only those signals' traps) over traps, the shell's actions by name (EXIT, ERR, DEBUG,
// RETURN, signal names without SIG). *shown, when not nil, is the table
// trap with no arguments and trap -p list instead (in a subshell that set
// no trap yet: the parent's); any other use of trap clears it. errf
// reports an error (the shell prefixes "bash: line N: ").
func Run(traps map[string]string, shown *map[string]string, args []string, stdout, stderr io.Writer, errf func(format string, a ...any)) int {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 || args[0] == "-p" {
		list := traps
		if *shown != nil {
			list = *shown
		}
		line := func(k string) {
			name := k
			if _, ok := Numbers[k]; ok {
				name = "SIG" + k
			}
			fmt.Fprintf(stdout, "trap -- '%s' %s\n", strings.ReplaceAll(list[k], "'", `'\''`), name)
		}
		if len(args) > 1 {
			// trap -p SIG ...: the traps of those signals only, in
			// the order given
			sigs := args[1:]
			if sigs[0] == "--" {
				sigs = sigs[1:]
			}
			status := 0
			for _, s := range sigs {
				name, ok := Name(s)
				if !ok {
					errf("trap: %s: invalid signal specification", s)
					status = 1
					continue
				}
				if _, set := list[name]; set {
					line(name)
				}
			}
			return status
		}
		// EXIT first, then the signals by number, as bash lists them.
		keys := slices.Sorted(maps.Keys(list))
		sort.SliceStable(keys, func(i, j int) bool { return order(keys[i]) < order(keys[j]) })
		for _, k := range keys {
			line(k)
		}
		return 0
	}
	*shown = nil
	if args[0] == "-l" {
		fmt.Fprint(stdout, Table())
		return 0
	}
	usage := func() int {
		fmt.Fprintln(stderr, "trap: usage: trap [-lp] [[arg] signal_spec ...]")
		return 2
	}
	if len(args[0]) > 1 && args[0][0] == '-' && args[0] != "--" && !(len(args) > 1 && args[0] == "-") {
		errf("trap: %s: invalid option", args[0][:2])
		return usage()
	}
	if args[0] == "--" {
		args = args[1:]
		if len(args) == 0 {
			return 0
		}
	}
	action := args[0]
	sigs := args[1:]
	switch {
	case len(sigs) == 0:
		// one argument: a signal to reset
		if _, ok := Name(action); !ok || action == "-" {
			return usage()
		}
		sigs, action = args, "-"
	case action != "" && strings.Trim(action, "0123456789") == "":
		// an unsigned number first: every argument is a signal to reset
		sigs, action = args, "-"
	}
	status := 0
	for _, s := range sigs {
		name, ok := Name(s)
		if !ok {
			errf("trap: %s: invalid signal specification", s)
			status = 1
			continue
		}
		if action == "-" {
			delete(traps, name)
		} else {
			traps[name] = action
		}
	}
	return status
}

// Numbers maps Linux's signal names (without SIG) to their numbers.
var Numbers = func() map[string]int {
	m := map[string]int{}
	for i, n := range Names {
		if n != "" {
			m[n] = i
		}
	}
	return m
}()

// Names are Linux's signals by number, as bash names them ("" for the
// numbers that name none).
var Names = func() []string {
	names := []string{"", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS", "", ""}
	for i := 34; i <= 64; i++ {
		switch {
		case i == 34:
			names = append(names, "RTMIN")
		case i < 50:
			names = append(names, fmt.Sprintf("RTMIN+%d", i-34))
		case i < 64:
			names = append(names, fmt.Sprintf("RTMAX-%d", 64-i))
		default:
			names = append(names, "RTMAX")
		}
	}
	return names
}()

// Table is the list kill -l and trap -l print.
func Table() string {
	var b strings.Builder
	col := 0
	for i, n := range Names {
		if n == "" {
			continue
		}
		fmt.Fprintf(&b, "%2d) SIG%s", i, n)
		col++
		if col%5 == 0 {
			b.WriteString("\n")
		} else {
			b.WriteString("\t")
		}
	}
	if col%5 != 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// Name is the trap name of a signal spec: a name with or without SIG in
// any case, a number, or EXIT (0), ERR, DEBUG and RETURN; false when it
// names no signal.
func Name(s string) (string, bool) {
	u := strings.ToUpper(strings.TrimPrefix(strings.ToUpper(s), "SIG"))
	switch u {
	case "EXIT", "0":
		return "EXIT", true
	case "ERR", "DEBUG", "RETURN":
		return u, true
	}
	if n, err := strconv.Atoi(s); err == nil {
		for k, v := range Numbers {
			if v == n {
				return k, true
			}
		}
		return "", false
	}
	if _, ok := Numbers[u]; ok {
		return u, true
	}
	return "", false
}

// List is kill -l/-L's listing (args after the option): the table, or
// each number's name (an exit status above 128 as its signal) and each
// name's number.
func List(args []string, stdout io.Writer, errf func(format string, a ...any)) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, Table())
		return 0
	}
	status := 0
	for _, a := range args {
		if n, err := strconv.Atoi(a); err == nil {
			if n > 128 {
				n -= 128
			}
			switch {
			case n == 0:
				fmt.Fprintln(stdout, "EXIT")
			case n > 0 && n < len(Names) && Names[n] != "":
				fmt.Fprintln(stdout, Names[n])
			default:
				errf("kill: %s: invalid signal specification", a)
				status = 1
			}
			continue
		}
		name, ok := Name(a)
		if n, known := Numbers[name]; ok && known {
			fmt.Fprintln(stdout, n)
			continue
		}
		errf("kill: %s: invalid signal specification", a)
		status = 1
	}
	return status
}

// order sorts trap names: EXIT, the signals by number, then DEBUG,
// ERR and RETURN.
func order(name string) int {
	if name == "EXIT" {
		return 0
	}
	if n, ok := Numbers[name]; ok {
		return n
	}
	return 100 + len(name)
}
