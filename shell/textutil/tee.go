package shell

import (
	"context"
	"fmt"
	"io"
	"os"
)

func init() { register(textTee, "tee") }

var teeFlags = textFlags{
	short: "aip",
	long: map[string]string{
		"append": "a", "ignore-interrupts": "i", "output-error": "p::",
	},
}

// textTee is tee: copy standard input to standard output and files.
//
// Supports -a/--append, -i (accepted; there are no signals here) and
// -p/--output-error[=MODE] (keep writing the files when standard output
// goes away). Output is written as it arrives, not buffered.
func textTee(ctx context.Context, c *Call, args []string) error {
	opts, files, err := textParse(teeFlags, args[1:])
	if err != nil {
		return textUsage(c, "tee", 1, err)
	}
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	keepGoing := false
	for _, o := range opts {
		switch o.key {
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
		f, err := textCreate(c, name, flag)
		if err != nil {
			fmt.Fprintf(c.Stderr, "tee: %s: %s\n", name, textErrText(err))
			status = 1
			continue
		}
		closers = append(closers, f)
		targets = append(targets, target{name, f})
	}
	buf := make([]byte, 64*1024)
	stdin := textStdin(c)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, rerr := stdin.Read(buf)
		if n > 0 {
			live := targets[:0]
			for _, t := range targets {
				if _, err := t.w.Write(buf[:n]); err != nil {
					if t.name == "-" && textBrokenPipe(err) && !keepGoing {
						return Exit(141)
					}
					if !(t.name == "-" && textBrokenPipe(err)) {
						fmt.Fprintf(c.Stderr, "tee: %s: %s\n", t.name, textErrText(err))
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
			fmt.Fprintf(c.Stderr, "tee: read error: %s\n", textErrText(rerr))
			return Exit(1)
		}
	}
	for _, cl := range closers {
		if err := cl.Close(); err != nil {
			status = 1
		}
	}
	closers = nil
	return Exit(status)
}
