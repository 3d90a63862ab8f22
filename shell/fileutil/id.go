package fileutil

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/shell/quotearg"
)

func init() {
	command.Register(fsWhoami, "whoami", "logname")
	command.Register(fsID, "id")
	command.Register(fsGroups, "groups")
	command.Register(fsUname, "uname")
	command.Register(fsHostname, "hostname")
}

// The sandbox's fixed identity.
const (
	fsHost    = "sandbox"
	fsKernel  = "Linux"
	fsRelease = "6.1.0"
	fsVersion = "#1 SMP PREEMPT_DYNAMIC"
	fsMachine = "x86_64"
)

// fsWhoami is whoami (and logname): the sandbox's user.
func fsWhoami(ctx context.Context, c *command.Call, args []string) error {
	if len(args) > 1 {
		return cmdutil.Usage(c, args[0], 1, cmdutil.Usagef("extra operand %s", quotearg.Quote(args[1])))
	}
	fmt.Fprintln(c.Stdout, Owner)
	return nil
}

// fsID is id: uid=1000(user) gid=1000(user) groups=1000(user); -u, -g,
// -G with -n (names) and -r (accepted). Other users do not exist.
func fsID(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "ugGnrz", Long: map[string]string{
		"user": "u", "group": "g", "groups": "G", "name": "n", "real": "r", "zero": "z",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "id", 1, err)
	}
	for _, u := range ops {
		if u != Owner && u != fmt.Sprint(UID) {
			posixfs.Warn(c, "id", "%s: no such user", quotearg.Quote(u))
			return command.Exit(1)
		}
	}
	what, names := "", false
	for _, o := range opts {
		switch o.Key {
		case "u", "g", "G":
			what = o.Key
		case "n":
			names = true
		}
	}
	if what == "" {
		fmt.Fprintf(c.Stdout, "uid=%d(%s) gid=%d(%s) groups=%d(%s)\n", UID, Owner, UID, Owner, UID, Owner)
		return nil
	}
	if names {
		fmt.Fprintln(c.Stdout, Owner)
	} else {
		fmt.Fprintln(c.Stdout, UID)
	}
	return nil
}

// fsGroups is groups: the user's one group.
func fsGroups(ctx context.Context, c *command.Call, args []string) error {
	if len(args) > 1 {
		fmt.Fprintf(c.Stdout, "%s : %s\n", args[1], Owner)
		return nil
	}
	fmt.Fprintln(c.Stdout, Owner)
	return nil
}

// fsUname is uname with the sandbox's fixed answers: -s (default), -n,
// -r, -v, -m, -p, -i, -o, -a.
func fsUname(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "asnrvmpio", Long: map[string]string{
		"all": "a", "kernel-name": "s", "nodename": "n", "kernel-release": "r",
		"kernel-version": "v", "machine": "m", "processor": "p", "hardware-platform": "i",
		"operating-system": "o",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "uname", 1, err)
	}
	if len(ops) > 0 {
		return cmdutil.Usage(c, "uname", 1, cmdutil.Usagef("extra operand %s", quotearg.Quote(ops[0])))
	}
	want := map[string]bool{}
	for _, o := range opts {
		if o.Key == "a" {
			for _, k := range []string{"s", "n", "r", "v", "m", "o"} {
				want[k] = true
			}
			continue
		}
		want[o.Key] = true
	}
	if len(want) == 0 {
		want["s"] = true
	}
	var out []string
	for _, f := range []struct{ key, val string }{
		{"s", fsKernel}, {"n", fsHost}, {"r", fsRelease}, {"v", fsVersion},
		{"m", fsMachine}, {"p", fsMachine}, {"i", fsMachine}, {"o", "GNU/Linux"},
	} {
		if want[f.key] {
			out = append(out, f.val)
		}
	}
	fmt.Fprintln(c.Stdout, strings.Join(out, " "))
	return nil
}

// fsHostname is hostname: "sandbox" (-s, -f and -A too); setting it is
// not permitted.
func fsHostname(ctx context.Context, c *command.Call, args []string) error {
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "-") {
			posixfs.Warn(c, "hostname", "you must be root to change the host name")
			return command.Exit(1)
		}
		if a == "-I" || a == "-i" || a == "--ip-address" || a == "--all-ip-addresses" {
			fmt.Fprintln(c.Stdout, "127.0.0.1")
			return nil
		}
	}
	fmt.Fprintln(c.Stdout, fsHost)
	return nil
}
