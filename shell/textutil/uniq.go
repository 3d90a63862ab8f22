package textutil

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textUniq, "uniq") }

var uniqFlags = cmdutil.Flags{
	Short: "cdDuif:s:w:z",
	Long: map[string]string{
		"count": "c", "repeated": "d", "all-repeated": "D::", "unique": "u",
		"ignore-case": "i", "skip-fields": "f:", "skip-chars": "s:",
		"check-chars": "w:", "zero-terminated": "z", "group": "group::",
	},
}

// textUniq is uniq: report or omit repeated lines.
//
// Supports -c ("%7d " counts), -d, -D/--all-repeated[=none|prepend|
// separate], --group[=separate|prepend|append|both], -u, -i, -f N, -s N,
// -w N, -z, and the INPUT and OUTPUT operands.
func textUniq(ctx context.Context, c *command.Call, args []string) error {
	opts, operands, err := cmdutil.Parse(uniqFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "uniq", 1, err)
	}
	u := uniqSettings{checkChars: -1, unique: true, firstRepeated: true}
	delim := byte('\n')
	count := false
	allRepeated := false
	for _, o := range opts {
		switch o.Key {
		case "c":
			count = true
		case "d":
			u.unique = false
		case "D":
			allRepeated = true
			switch o.Val {
			case "", "none":
				u.sepMode = ""
			case "prepend", "separate":
				u.sepMode = o.Val
			default:
				return cmdutil.Usage(c, "uniq", 1, cmdutil.Usagef("invalid argument %s for '--all-repeated'", cmdutil.Quote(o.Val)))
			}
		case "group":
			switch o.Val {
			case "":
				u.group = "separate"
			case "separate", "prepend", "append", "both":
				u.group = o.Val
			default:
				return cmdutil.Usage(c, "uniq", 1, cmdutil.Usagef("invalid argument %s for '--group'", cmdutil.Quote(o.Val)))
			}
		case "u":
			u.firstRepeated = false
		case "i":
			u.foldCase = true
		case "f", "s", "w":
			n, err := strconv.ParseInt(o.Val, 10, 64)
			if err != nil || n < 0 {
				what := map[string]string{"f": "number of fields to skip", "s": "number of bytes to skip", "w": "number of bytes to compare"}[o.Key]
				return c.Errorf(1, "uniq", "%s: %s", o.Val, "invalid "+what)
			}
			switch o.Key {
			case "f":
				u.skipFields = int(n)
			case "s":
				u.skipChars = int(n)
			case "w":
				u.checkChars = int(n)
			}
		case "z":
			delim = 0
		}
	}
	if allRepeated {
		u.unique, u.laterRepeated = false, true
		if count {
			return cmdutil.Usage(c, "uniq", 1, cmdutil.Usagef("printing all duplicated lines and repeat counts is meaningless"))
		}
	}
	if u.group != "" && (count || allRepeated || !u.unique || !u.firstRepeated) {
		return cmdutil.Usage(c, "uniq", 1, cmdutil.Usagef("--group is mutually exclusive with -c/-d/-D/-u"))
	}
	u.count = count
	if len(operands) > 2 {
		return cmdutil.Usage(c, "uniq", 1, cmdutil.Usagef("extra operand %s", cmdutil.Quote(operands[2])))
	}
	in := "-"
	if len(operands) > 0 {
		in = operands[0]
	}
	r, err := cmdutil.Open(c, in)
	if err != nil {
		return c.Errorf(1, "uniq", "%s: %s", in, cmdutil.ErrText(err))
	}
	defer r.Close()
	var w io.Writer = c.Stdout
	var file io.WriteCloser
	if len(operands) == 2 && operands[1] != "-" {
		f, err := cmdutil.Create(c, operands[1], os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
		if err != nil {
			return c.Errorf(1, "uniq", "%s: %s", operands[1], cmdutil.ErrText(err))
		}
		file, w = f, f
	}
	out := cmdutil.GetWriter(w)
	defer cmdutil.PutWriter(out)
	err = u.run(ctx, r, out, delim)
	if ferr := out.Flush(); err == nil && ferr != nil {
		err = &cmdutil.WriteError{Err: ferr}
	}
	if file != nil {
		file.Close()
	}
	if err != nil {
		if _, isWrite := err.(*cmdutil.WriteError); !isWrite && ctx.Err() == nil {
			return c.Errorf(1, "uniq", "error reading %s", cmdutil.Quote(in))
		}
	}
	return cmdutil.Finish(c, "uniq", err)
}

type uniqSettings struct {
	skipFields, skipChars, checkChars    int
	foldCase, count                      bool
	unique, firstRepeated, laterRepeated bool
	sepMode, group                       string
}

// key is the part of a line uniq compares.
func (u *uniqSettings) key(line []byte) []byte {
	p := 0
	for f := 0; f < u.skipFields && p < len(line); f++ {
		for p < len(line) && (line[p] == ' ' || line[p] == '\t') {
			p++
		}
		for p < len(line) && line[p] != ' ' && line[p] != '\t' {
			p++
		}
	}
	p = min(len(line), p+u.skipChars)
	k := line[p:]
	if u.checkChars >= 0 && len(k) > u.checkChars {
		k = k[:u.checkChars]
	}
	return k
}

func (u *uniqSettings) same(a, b []byte) bool {
	ka, kb := u.key(a), u.key(b)
	if u.foldCase {
		return bytes.EqualFold(ka, kb)
	}
	return bytes.Equal(ka, kb)
}

func (u *uniqSettings) run(ctx context.Context, r io.Reader, out *bufio.Writer, delim byte) error {
	if u.group != "" {
		return u.runGroups(ctx, r, out, delim)
	}
	var prev []byte
	have := false
	if u.skipFields == 0 && u.skipChars == 0 && u.checkChars < 0 && !u.foldCase && !u.count &&
		u.unique && u.firstRepeated && !u.laterRepeated && u.sepMode == "" {
		// Plain uniq: the first line of each run of equal lines, written
		// when the next run starts (as check_file does, below).
		// prev holds its delimiter: one write per line.
		write := func(line []byte) error {
			if _, err := out.Write(line); err != nil {
				return &cmdutil.WriteError{Err: err}
			}
			return nil
		}
		err := cmdutil.ReadLines(ctx, r, delim, func(line []byte, _ bool) error {
			if have && bytes.Equal(line, prev[:len(prev)-1]) {
				return nil
			}
			if have {
				if err := write(prev); err != nil {
					return err
				}
			}
			have = true
			prev = append(append(prev[:0], line...), delim)
			return nil
		})
		if err != nil {
			return err
		}
		if have {
			return write(prev)
		}
		return nil
	}
	// The loop of GNU uniq's check_file.
	matchCount := 0
	firstDelimiter := true
	write := func(line []byte, match bool, cnt int) error {
		ok := u.firstRepeated
		if cnt == 0 {
			ok = u.unique
		} else if match {
			ok = u.laterRepeated
		}
		if !ok {
			return nil
		}
		if u.count {
			fmt.Fprintf(out, "%7d ", cnt+1)
		}
		out.Write(line)
		if err := out.WriteByte(delim); err != nil {
			return &cmdutil.WriteError{Err: err}
		}
		return nil
	}
	err := cmdutil.ReadLines(ctx, r, delim, func(line []byte, _ bool) error {
		if !have {
			have = true
			prev = append(prev[:0], line...)
			return nil
		}
		match := u.same(line, prev)
		if match {
			matchCount++
		}
		if u.sepMode != "" {
			if !match {
				if matchCount > 0 {
					firstDelimiter = false
				}
			} else if matchCount == 1 && (u.sepMode == "prepend" || (u.sepMode == "separate" && !firstDelimiter)) {
				out.WriteByte(delim)
			}
		}
		if !match || u.laterRepeated {
			if err := write(prev, match, matchCount); err != nil {
				return err
			}
			prev = append(prev[:0], line...)
			if !match {
				matchCount = 0
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if have {
		return write(prev, false, matchCount)
	}
	return nil
}

// runGroups is --group: every line, with an empty line around groups.
func (u *uniqSettings) runGroups(ctx context.Context, r io.Reader, out *bufio.Writer, delim byte) error {
	var prev []byte
	have := false
	err := cmdutil.ReadLines(ctx, r, delim, func(line []byte, _ bool) error {
		newGroup := !have || !u.same(line, prev)
		if newGroup {
			if (have && (u.group == "separate" || u.group == "append" || u.group == "both")) ||
				u.group == "prepend" || (!have && u.group == "both") {
				out.WriteByte(delim)
			}
			prev = append(prev[:0], line...)
		}
		have = true
		out.Write(line)
		if err := out.WriteByte(delim); err != nil {
			return &cmdutil.WriteError{Err: err}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if have && (u.group == "append" || u.group == "both") {
		out.WriteByte(delim)
	}
	return nil
}
