package textutil

import (
	"context"
	"io"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textPaste, "paste") }

var pasteFlags = cmdutil.Flags{
	Short: "d:sz",
	Long:  map[string]string{"delimiters": "d:", "serial": "s", "zero-terminated": "z"},
}

// textPaste is paste: merge lines of files.
//
// Supports -d/--delimiters=LIST (used in turn; \n \t \\ and \0 for none),
// -s/--serial and -z. "-" may be given several times: it reads standard
// input in turn.
func textPaste(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(pasteFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "paste", 1, err)
	}
	delims := []string{"\t"}
	serial := false
	eol := byte('\n')
	for _, o := range opts {
		switch o.Key {
		case "d":
			delims = pasteDelims(o.Val)
		case "s":
			serial = true
		case "z":
			eol = 0
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	var stdin *cmdutil.LineReader
	readers := make([]*cmdutil.LineReader, len(files))
	for i, name := range files {
		if name == "-" {
			if stdin == nil {
				stdin = cmdutil.NewLineReader(ctx, cmdutil.Stdin(c), eol)
			}
			readers[i] = stdin
			continue
		}
		r, err := cmdutil.Open(c, name)
		if err != nil {
			return c.Errorf(1, "paste", "%s: %s", name, cmdutil.ErrText(err))
		}
		defer r.Close()
		readers[i] = cmdutil.NewLineReader(ctx, r, eol)
	}
	next := func(lr *cmdutil.LineReader) ([]byte, bool, error) {
		line, err := lr.Next()
		if err == io.EOF {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		if line[len(line)-1] == eol {
			line = line[:len(line)-1]
		}
		return line, true, nil
	}
	out := cmdutil.NewOut(c)
	if serial {
		for _, lr := range readers {
			k := 0
			first := true
			for {
				line, ok, err := next(lr)
				if err != nil {
					return cmdutil.Finish(c, "paste", err)
				}
				if !ok {
					break
				}
				if !first {
					out.WriteString(delims[k%len(delims)])
					k++
				}
				first = false
				out.Write(line)
			}
			out.WriteByte(eol)
		}
	} else {
		done := make([]bool, len(readers))
		for {
			left := 0
			var row []byte
			for i, lr := range readers {
				if !done[i] {
					line, ok, err := next(lr)
					if err != nil {
						return cmdutil.Finish(c, "paste", err)
					}
					if ok {
						row = append(row, line...)
						left++
					} else {
						done[i] = true
					}
				}
				if i < len(readers)-1 {
					row = append(row, delims[i%len(delims)]...)
				}
			}
			if left == 0 {
				break
			}
			out.Write(row)
			out.WriteByte(eol)
		}
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, "paste", err)
	}
	return nil
}

// pasteDelims splits a -d list into its delimiters ("" for \0).
func pasteDelims(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			out = append(out, s[i:i+1])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			out = append(out, "\n")
		case 't':
			out = append(out, "\t")
		case '0':
			out = append(out, "")
		case '\\':
			out = append(out, "\\")
		default:
			out = append(out, s[i:i+1])
		}
	}
	if len(out) == 0 {
		out = []string{""}
	}
	return out
}
