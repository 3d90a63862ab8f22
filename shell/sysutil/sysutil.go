// Package sysutil holds the commands that describe the machine a sandbox
// appears to be, and flock: nproc, getconf, flock. They report the
// sandbox's fixed machine (one processor, Linux's x86_64 limits), never the
// host's. Importing the package registers them (shell/command).
package sysutil

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/command"
)

func init() {
	command.Register(nproc, "nproc")
	command.Register(getconf, "getconf")
	command.Register(flock, "flock")
}

// Processors is what nproc and getconf _NPROCESSORS_ONLN report: a
// sandbox runs its commands one instruction stream each, whatever the
// host has.
const Processors = 1

// nproc is GNU nproc: [--all] [--ignore=N].
func nproc(ctx context.Context, c *command.Call, args []string) error {
	ignore := 0
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--all":
		case a == "--ignore" && i+1 < len(args):
			i++
			a = "--ignore=" + args[i]
			fallthrough
		case strings.HasPrefix(a, "--ignore="):
			v := strings.TrimPrefix(a, "--ignore=")
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return c.Errorf(1, "nproc", "invalid number: %s", quote(v))
			}
			ignore = n
		case a == "--help":
			fmt.Fprintln(c.Stdout, "Usage: nproc [OPTION]...\nPrint the number of processing units available to the current process,\nwhich may be less than the number of online processors\n\n      --all      print the number of installed processors\n      --ignore=N  if possible, exclude N processing units")
			return nil
		case strings.HasPrefix(a, "-"):
			fmt.Fprintf(c.Stderr, "nproc: unrecognized option %s\nTry 'nproc --help' for more information.\n", quote(a))
			return command.Exit(1)
		default:
			fmt.Fprintf(c.Stderr, "nproc: extra operand %s\nTry 'nproc --help' for more information.\n", quote(a))
			return command.Exit(1)
		}
	}
	fmt.Fprintln(c.Stdout, max(Processors-ignore, 1))
	return nil
}

// confVars are the values getconf knows: Linux x86_64 with glibc, as the
// sandbox presents itself.
var confVars = map[string]string{
	"_NPROCESSORS_ONLN": strconv.Itoa(Processors),
	"_NPROCESSORS_CONF": strconv.Itoa(Processors),
	"PAGESIZE":          "4096",
	"PAGE_SIZE":         "4096",
	"LONG_BIT":          "64",
	"WORD_BIT":          "32",
	"CHAR_BIT":          "8",
	"INT_MAX":           "2147483647",
	"INT_MIN":           "-2147483648",
	"UINT_MAX":          "4294967295",
	"LONG_MAX":          "9223372036854775807",
	"SSIZE_MAX":         "32767",
	"ARG_MAX":           "2097152",
	"CHILD_MAX":         "63432",
	"CLK_TCK":           "100",
	"HOST_NAME_MAX":     "64",
	"LOGIN_NAME_MAX":    "256",
	"LINE_MAX":          "2048",
	"NGROUPS_MAX":       "65536",
	"OPEN_MAX":          "1024",
	"PATH_MAX":          "4096",
	"NAME_MAX":          "255",
	"PIPE_BUF":          "4096",
	"_POSIX_VERSION":    "200809",
	"POSIX_VERSION":     "200809",
	"GNU_LIBC_VERSION":  "glibc 2.36",
	"PATH":              "/bin:/usr/bin",
}

// pathVars are the variables that take a path operand.
var pathVars = map[string]bool{"PATH_MAX": true, "NAME_MAX": true, "PIPE_BUF": true, "LINK_MAX": true}

// getconf is getconf VAR [PATH], and getconf -a.
func getconf(ctx context.Context, c *command.Call, args []string) error {
	args = args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 1 && args[0] == "-a" {
		names := make([]string, 0, len(confVars))
		for k := range confVars {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			fmt.Fprintf(c.Stdout, "%-35s%s\n", k, confVars[k])
		}
		return nil
	}
	if len(args) == 0 || len(args) > 2 {
		fmt.Fprintln(c.Stderr, "Usage: getconf [-v specification] variable_name [pathname]\n       getconf -a [pathname]")
		return command.Exit(1)
	}
	v, ok := confVars[args[0]]
	if !ok || (len(args) == 2 && !pathVars[args[0]]) {
		fmt.Fprintf(c.Stderr, "getconf: Unrecognized variable `%s'\n", args[0])
		return command.Exit(2)
	}
	fmt.Fprintln(c.Stdout, v)
	return nil
}

// quote is a name as GNU tools quote it in messages.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
