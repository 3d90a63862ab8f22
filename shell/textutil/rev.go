package shell

import (
	"context"
	"fmt"
	"unicode/utf8"
)

func init() { register(textRev, "rev") }

// textRev is rev: reverse the characters (UTF-8) of each line of files or
// standard input. A last line without a newline stays without one.
func textRev(ctx context.Context, c *Call, args []string) error {
	files := args[1:]
	if len(files) > 0 && files[0] == "--" {
		files = files[1:]
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := newTextOut(c)
	status := 0
	var buf []byte
	for _, name := range files {
		r, err := textOpen(c, name)
		if err != nil {
			out.Flush()
			fmt.Fprintf(c.Stderr, "rev: cannot open %s: %s\n", name, textErrText(err))
			status = 1
			continue
		}
		err = textReadLines(ctx, r, '\n', func(line []byte, term bool) error {
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
			return textFinish(c, "rev", err)
		}
	}
	if err := textFlush(out); err != nil {
		return textFinish(c, "rev", err)
	}
	return Exit(status)
}
