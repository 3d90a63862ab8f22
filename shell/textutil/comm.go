package textutil

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textComm, "comm") }

var commFlags = cmdutil.Flags{
	Short: "123z",
	Long: map[string]string{
		"check-order": "check", "nocheck-order": "nocheck", "output-delimiter": "od:",
		"total": "total", "zero-terminated": "z",
	},
}

// textComm is comm: compare two sorted files line by line.
//
// Supports -1, -2, -3, --check-order, --nocheck-order,
// --output-delimiter=STR, --total and -z. As in GNU comm, unsorted input
// is reported (once per file) when it matters, and makes the status 1.
func textComm(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(commFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "comm", 1, err)
	}
	show := [4]bool{false, true, true, true}
	check := 0 // 0 default, 1 enabled, -1 disabled
	delim := "\t"
	delimSet := false
	total := false
	eol := byte('\n')
	for _, o := range opts {
		switch o.Key {
		case "1", "2", "3":
			show[o.Key[0]-'0'] = false
		case "check":
			check = 1
		case "nocheck":
			check = -1
		case "od":
			if delimSet && o.Val != delim {
				return c.Errorf(1, "comm", "multiple output delimiters specified")
			}
			delim, delimSet = o.Val, true
			if delim == "" {
				delim = "\x00"
			}
		case "total":
			total = true
		case "z":
			eol = 0
		}
	}
	switch {
	case len(files) == 0:
		return cmdutil.Usage(c, "comm", 1, cmdutil.Usagef("missing operand"))
	case len(files) == 1:
		return cmdutil.Usage(c, "comm", 1, cmdutil.Usagef("missing operand after %s", cmdutil.Quote(files[0])))
	case len(files) > 2:
		return cmdutil.Usage(c, "comm", 1, cmdutil.Usagef("extra operand %s", cmdutil.Quote(files[2])))
	}
	var lrs [2]*cmdutil.LineReader
	for i, name := range files {
		r, err := cmdutil.Open(c, name)
		if err != nil {
			return c.Errorf(1, "comm", "%s: %s", name, cmdutil.ErrText(err))
		}
		defer r.Close()
		lrs[i] = cmdutil.NewLineReader(ctx, r, eol)
	}
	out := cmdutil.NewOut(c)
	var cur, prev [2][]byte
	var have [2]bool
	var warned [2]bool
	var counts [4]int64
	seenUnpairable := false
	read := func(i int) error {
		line, err := lrs[i].Next()
		if err == io.EOF {
			have[i] = false
			return nil
		}
		if err != nil {
			return err
		}
		if len(line) > 0 && line[len(line)-1] == eol {
			line = line[:len(line)-1]
		}
		prev[i] = append(prev[i][:0], cur[i]...)
		hadPrev := have[i]
		cur[i] = append(cur[i][:0], line...)
		have[i] = true
		if hadPrev && check >= 0 && (check == 1 || seenUnpairable) && !warned[i] && bytes.Compare(prev[i], cur[i]) > 0 {
			out.Flush()
			fmt.Fprintf(c.Stderr, "comm: file %d is not in sorted order\n", i+1)
			if check == 1 {
				return command.Exit(1)
			}
			warned[i] = true
		}
		return nil
	}
	write := func(col int, line []byte) {
		counts[col]++
		if !show[col] {
			return
		}
		for k := 1; k < col; k++ {
			if show[k] {
				out.WriteString(delim)
			}
		}
		out.Write(line)
		out.WriteByte(eol)
	}
	for i := range lrs {
		if err := read(i); err != nil {
			return cmdutil.Finish(c, "comm", err)
		}
	}
	for have[0] || have[1] {
		order := 0
		switch {
		case !have[0]:
			order = 1
		case !have[1]:
			order = -1
		default:
			order = bytes.Compare(cur[0], cur[1])
		}
		if order == 0 {
			write(3, cur[1])
		} else {
			seenUnpairable = true
			if order < 0 {
				write(1, cur[0])
			} else {
				write(2, cur[1])
			}
		}
		if order <= 0 {
			if err := read(0); err != nil {
				return cmdutil.Finish(c, "comm", err)
			}
		}
		if order >= 0 {
			if err := read(1); err != nil {
				return cmdutil.Finish(c, "comm", err)
			}
		}
	}
	if total {
		fmt.Fprintf(out, "%d%s%d%s%d%stotal%c", counts[1], delim, counts[2], delim, counts[3], delim, eol)
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, "comm", err)
	}
	if warned[0] || warned[1] {
		fmt.Fprintf(c.Stderr, "comm: input is not in sorted order\n")
		return command.Exit(1)
	}
	return nil
}
