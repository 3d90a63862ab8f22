package textutil

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

func init() { command.Register(textTac, "tac") }

var tacFlags = cmdutil.Flags{
	Short: "bs:",
	Long:  map[string]string{"before": "b", "separator": "s:"},
}

// textTac is tac: print files last line first.
//
// Supports -s/--separator=STRING and -b/--before. Each input is read
// whole (it has to be, to start from its end).
func textTac(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(tacFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "tac", 1, err)
	}
	sep, before := []byte("\n"), false
	for _, o := range opts {
		switch o.Key {
		case "s":
			if o.Val == "" {
				return c.Errorf(1, "tac", "separator cannot be empty")
			}
			sep = []byte(o.Val)
		case "b":
			before = true
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := cmdutil.NewOut(c)
	status := 0
	for _, name := range files {
		r, err := cmdutil.Open(c, name)
		if err != nil {
			out.Flush()
			fmt.Fprintf(c.Stderr, "tac: %s: %s\n", name, cmdutil.ErrText(err))
			status = 1
			continue
		}
		data, err := io.ReadAll(posixfs.ContextReader(ctx, r))
		r.Close()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			out.Flush()
			fmt.Fprintf(c.Stderr, "tac: %s: read error: %s\n", name, cmdutil.ErrText(err))
			status = 1
			continue
		}
		// Split into records, each with its separator (after it, or
		// before it with -b).
		var cuts []int
		for off := 0; ; {
			i := bytes.Index(data[off:], sep)
			if i < 0 {
				break
			}
			cut := off + i + len(sep)
			if before {
				cut = off + i
			}
			if cut > 0 && cut < len(data) {
				cuts = append(cuts, cut)
			}
			off += i + len(sep)
		}
		var recs [][]byte
		prev := 0
		for _, cut := range cuts {
			recs = append(recs, data[prev:cut])
			prev = cut
		}
		if prev < len(data) {
			recs = append(recs, data[prev:])
		}
		for k := len(recs) - 1; k >= 0; k-- {
			if k%1024 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			out.Write(recs[k])
		}
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, "tac", err)
	}
	return command.Exit(status)
}
