package textutil

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textTee, "tee") }

var teeFlags = cmdutil.Flags{
	Short: "aip",
	Long: map[string]string{
		"append": "a", "ignore-interrupts": "i", "output-error": "p::",
	},
}

// textTee is tee: copy standard input to standard output and files.
//
// Supports -a/--append, -i (accepted; there are no signals here) and
// -p/--output-error[=MODE] (keep writing the files when standard output
// goes away). Output is written as it arrives, not buffered.
func textTee(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(teeFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "tee", 1, err)
	}
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	keepGoing := false
	for _, o := range opts {
		switch o.Key {
		case "a":
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		case "p":
			keepGoing = true
		}
	}
	status := 0
	type target struct {
		name string
		w    io.Writer
	}
	targets := []target{{"-", c.Stdout}}
	var closers []io.Closer
	defer func() {
		for _, cl := range closers {
			cl.Close()
		}
	}()
	for _, name := range files {
		if name == "-" {
			targets = append(targets, target{"-", c.Stdout})
			continue
		}
		f, err := cmdutil.Create(c, name, flag)
		if err != nil {
			fmt.Fprintf(c.Stderr, "tee: %s: %s\n", name, cmdutil.ErrText(err))
			status = 1
			continue
		}
		closers = append(closers, f)
		targets = append(targets, target{name, f})
	}
	buf := make([]byte, 64*1024)
	stdin := cmdutil.Stdin(c)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, rerr := stdin.Read(buf)
		if n > 0 {
			live := targets[:0]
			for _, t := range targets {
				if _, err := t.w.Write(buf[:n]); err != nil {
					if t.name == "-" && cmdutil.BrokenPipe(err) && !keepGoing {
						return command.Exit(141)
					}
					if !(t.name == "-" && cmdutil.BrokenPipe(err)) {
						fmt.Fprintf(c.Stderr, "tee: %s: %s\n", t.name, cmdutil.ErrText(err))
						status = 1
					}
					continue
				}
				live = append(live, t)
			}
			targets = live
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			fmt.Fprintf(c.Stderr, "tee: read error: %s\n", cmdutil.ErrText(rerr))
			return command.Exit(1)
		}
	}
	for _, cl := range closers {
		if err := cl.Close(); err != nil {
			status = 1
		}
	}
	closers = nil
	return command.Exit(status)
}
