package textutil

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textFold, "fold") }

var foldFlags = cmdutil.Flags{
	Short: "bsw:",
	Long:  map[string]string{"bytes": "b", "spaces": "s", "width": "w:"},
}

// textFold is fold: wrap each input line to fit in a width.
//
// Supports -w/--width=N (80), -s/--spaces (break after the last blank)
// and -b/--bytes (count bytes, not columns); also the obsolescent -N.
// Columns are GNU's: a tab goes to the next multiple of 8, a backspace
// goes back one, a carriage return goes to 0.
func textFold(ctx context.Context, c *command.Call, args []string) error {
	args = args[1:]
	for i, a := range args {
		if len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' {
			args[i] = "-w" + a[1:]
		}
	}
	opts, files, err := cmdutil.Parse(foldFlags, args)
	if err != nil {
		return cmdutil.Usage(c, "fold", 1, err)
	}
	width, spaces, countBytes := 80, false, false
	for _, o := range opts {
		switch o.Key {
		case "w":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n < 1 {
				return c.Errorf(1, "fold", "invalid number of columns: %s", cmdutil.Quote(o.Val))
			}
			width = n
		case "s":
			spaces = true
		case "b":
			countBytes = true
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
			fmt.Fprintf(c.Stderr, "fold: %s: %s\n", name, cmdutil.ErrText(err))
			status = 1
			continue
		}
		err = foldStream(ctx, out.Writer, r, width, spaces, countBytes)
		r.Close()
		if err != nil {
			return cmdutil.Finish(c, "fold", err)
		}
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, "fold", err)
	}
	return command.Exit(status)
}

// foldStream is GNU fold's fold_file.
func foldStream(ctx context.Context, w *bufio.Writer, r io.Reader, width int, spaces, countBytes bool) error {
	adjust := func(col int, ch byte) int {
		if countBytes {
			return col + 1
		}
		switch ch {
		case '\b':
			if col > 0 {
				col--
			}
			return col
		case '\r':
			return 0
		case '\t':
			return col + 8 - col%8
		}
		return col + 1
	}
	br := bufio.NewReaderSize(r, 64*1024)
	var line []byte
	col := 0
	n := 0
	for {
		ch, err := br.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if n++; n%65536 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if ch == '\n' {
			w.Write(line)
			w.WriteByte('\n')
			line, col = line[:0], 0
			continue
		}
	rescan:
		col = adjust(col, ch)
		if col > width {
			if spaces {
				end := -1
				for k := len(line) - 1; k >= 0; k-- {
					if line[k] == ' ' || line[k] == '\t' {
						end = k + 1
						break
					}
				}
				if end > 0 {
					w.Write(line[:end])
					w.WriteByte('\n')
					line = append(line[:0], line[end:]...)
					col = 0
					for _, b := range line {
						col = adjust(col, b)
					}
					goto rescan
				}
			}
			if len(line) == 0 {
				line = append(line, ch)
				continue
			}
			w.Write(line)
			w.WriteByte('\n')
			line, col = line[:0], 0
			goto rescan
		}
		line = append(line, ch)
	}
	w.Write(line)
	return nil
}
