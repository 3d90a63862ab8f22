package textutil

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textRev, "rev") }

// textRev is rev: reverse the characters (UTF-8) of each line of files or
// standard input. A last line without a newline stays without one.
func textRev(ctx context.Context, c *command.Call, args []string) error {
	files := args[1:]
	if len(files) > 0 && files[0] == "--" {
		files = files[1:]
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := cmdutil.NewOut(c)
	status := 0
	var buf []byte
	for _, name := range files {
		r, err := cmdutil.Open(c, name)
		if err != nil {
			out.Flush()
			fmt.Fprintf(c.Stderr, "rev: cannot open %s: %s\n", name, cmdutil.ErrText(err))
			status = 1
			continue
		}
		err = cmdutil.ReadLines(ctx, r, '\n', func(line []byte, term bool) error {
			buf = buf[:0]
			for len(line) > 0 {
				_, size := utf8.DecodeLastRune(line)
				buf = append(buf, line[len(line)-size:]...)
				line = line[:len(line)-size]
			}
			out.Write(buf)
			if term {
				return out.WriteByte('\n')
			}
			return nil
		})
		r.Close()
		if err != nil {
			return cmdutil.Finish(c, "rev", err)
		}
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, "rev", err)
	}
	return command.Exit(status)
}
