package shell

import (
	"bytes"
	"context"
	"fmt"
	"io"
)

func init() { register(textTac, "tac") }

var tacFlags = textFlags{
	short: "bs:",
	long:  map[string]string{"before": "b", "separator": "s:"},
}

// textTac is tac: print files last line first.
//
// Supports -s/--separator=STRING and -b/--before. Each input is read
// whole (it has to be, to start from its end).
func textTac(ctx context.Context, c *Call, args []string) error {
	opts, files, err := textParse(tacFlags, args[1:])
	if err != nil {
		return textUsage(c, "tac", 1, err)
	}
	sep, before := []byte("\n"), false
	for _, o := range opts {
		switch o.key {
		case "s":
			if o.val == "" {
				return c.Errorf(1, "tac", "separator cannot be empty")
			}
			sep = []byte(o.val)
		case "b":
			before = true
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := newTextOut(c)
	status := 0
	for _, name := range files {
		r, err := textOpen(c, name)
		if err != nil {
			out.Flush()
			fmt.Fprintf(c.Stderr, "tac: %s: %s\n", name, textErrText(err))
			status = 1
			continue
		}
		data, err := io.ReadAll(&textCtxReader{ctx: ctx, r: r})
		r.Close()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			out.Flush()
			fmt.Fprintf(c.Stderr, "tac: %s: read error: %s\n", name, textErrText(err))
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
	if err := textFlush(out); err != nil {
		return textFinish(c, "tac", err)
	}
	return Exit(status)
}
