package diff

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textCmp, "cmp") }

// cmpDifferWord is the word of cmp's "A B differ: byte N, line M" as
// Debian's diffutils 3.8 picks it: "char" in the C (POSIX) locale, "byte"
// in any other. The locale is the first set of LC_ALL, LC_MESSAGES and
// LANG; as on a Debian system with only the C locales installed, C.UTF-8
// (C.utf8, ...) is the one other locale: a name that is not installed
// (en_US.UTF-8, say) leaves the C locale, hence "char".
func cmpDifferWord(c *command.Call) string {
	loc := ""
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v, ok := c.Env(name); ok && v != "" {
			loc = v
			break
		}
	}
	lang, codeset, ok := strings.Cut(loc, ".")
	if !ok || lang != "C" {
		return "char"
	}
	codeset, _, _ = strings.Cut(codeset, "@")
	norm := strings.Map(func(r rune) rune {
		switch {
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		}
		return -1
	}, codeset)
	if norm == "utf8" {
		return "byte"
	}
	return "char"
}

var cmpFlags = cmdutil.Flags{
	Short: "bi:ln:s",
	Long: map[string]string{
		"print-bytes": "b", "ignore-initial": "i:", "verbose": "l", "bytes": "n:",
		"quiet": "s", "silent": "s",
	},
}

// textCmp is cmp: compare two files byte by byte.
//
// Supports -s/--quiet, -l/--verbose, -b/--print-bytes, -n/--bytes=LIMIT,
// -i/--ignore-initial=SKIP[:SKIP2] and the SKIP1 SKIP2 operands. It prints
// "A B differ: byte N, line M" ("char N" in the C locale, as Debian's
// diffutils 3.8 does: see cmpDifferWord) or GNU's EOF notes;
// exit status 0 same, 1 different, 2 trouble.
func textCmp(ctx context.Context, c *command.Call, args []string) error {
	opts, operands, err := cmdutil.Parse(cmpFlags, args[1:])
	if err != nil {
		fmt.Fprintf(c.Stderr, "cmp: %s\ncmp: Try 'cmp --help' for more information.\n", err.Error())
		return command.Exit(2)
	}
	quiet, verbose, printBytes := false, false, false
	limit := int64(-1)
	var skip [2]int64
	for _, o := range opts {
		switch o.Key {
		case "s":
			quiet = true
		case "l":
			verbose = true
		case "b":
			printBytes = true
		case "n":
			n, ok := cmdutil.ParseCount(o.Val)
			if !ok {
				return c.Errorf(2, "cmp", "invalid --bytes value %s", cmdutil.Quote(o.Val))
			}
			limit = n
		case "i":
			a, b, two := strings.Cut(o.Val, ":")
			n, ok := cmdutil.ParseCount(a)
			m := n
			if two {
				var ok2 bool
				m, ok2 = cmdutil.ParseCount(b)
				ok = ok && ok2
			}
			if !ok {
				return c.Errorf(2, "cmp", "invalid --ignore-initial value %s", cmdutil.Quote(o.Val))
			}
			skip = [2]int64{n, m}
		}
	}
	if quiet && verbose {
		fmt.Fprintf(c.Stderr, "cmp: options -l and -s are incompatible\ncmp: Try 'cmp --help' for more information.\n")
		return command.Exit(2)
	}
	switch {
	case len(operands) == 0:
		fmt.Fprintf(c.Stderr, "cmp: missing operand after 'cmp'\ncmp: Try 'cmp --help' for more information.\n")
		return command.Exit(2)
	case len(operands) > 4:
		fmt.Fprintf(c.Stderr, "cmp: extra operand %s\ncmp: Try 'cmp --help' for more information.\n", cmdutil.Quote(operands[4]))
		return command.Exit(2)
	}
	if len(operands) == 1 {
		operands = append(operands, "-")
	}
	for i := 2; i < len(operands); i++ {
		n, ok := cmdutil.ParseCount(operands[i])
		if !ok {
			return c.Errorf(2, "cmp", "invalid --ignore-initial value %s", cmdutil.Quote(operands[i]))
		}
		skip[i-2] = n
	}
	names := [2]string{operands[0], operands[1]}
	var readers [2]*bufio.Reader
	var sizes [2]int64
	for i, name := range names {
		r, err := cmdutil.Open(c, name)
		if err != nil {
			return c.Errorf(2, "cmp", "%s: %s", name, cmdutil.ErrText(err))
		}
		defer r.Close()
		sizes[i] = -1
		if s, ok := r.(cmdutil.Statter); ok {
			if st, err := s.Stat(); err == nil && st.Mode().IsRegular() {
				sizes[i] = max(0, st.Size()-skip[i])
			}
		}
		if _, err := io.CopyN(io.Discard, r, skip[i]); err != nil && err != io.EOF {
			return c.Errorf(2, "cmp", "%s: %s", name, cmdutil.ErrText(err))
		}
		readers[i] = bufio.NewReaderSize(r, 64*1024)
	}
	out := cmdutil.NewOut(c)
	width := 1
	if verbose {
		m := limit
		for _, s := range sizes {
			if s >= 0 && (m < 0 || s < m) {
				m = s
			}
		}
		if m < 0 {
			m = 1<<63 - 1
		}
		width = len(strconv.FormatInt(m, 10))
	}
	var pos, line int64 = 0, 1
	differ := false
	for limit < 0 || pos < limit {
		if pos%65536 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		b0, err0 := readers[0].ReadByte()
		b1, err1 := readers[1].ReadByte()
		if err0 != nil || err1 != nil {
			if err0 != nil && err0 != io.EOF {
				return c.Errorf(2, "cmp", "%s: %s", names[0], cmdutil.ErrText(err0))
			}
			if err1 != nil && err1 != io.EOF {
				return c.Errorf(2, "cmp", "%s: %s", names[1], cmdutil.ErrText(err1))
			}
			if err0 == io.EOF && err1 == io.EOF {
				break
			}
			short := names[0]
			if err0 == nil {
				short = names[1]
			}
			if ferr := cmdutil.Flush(out); ferr != nil {
				return cmdutil.Finish(c, "cmp", ferr)
			}
			if !quiet {
				switch {
				case pos == 0:
					fmt.Fprintf(c.Stderr, "cmp: EOF on %s which is empty\n", short)
				case verbose:
					fmt.Fprintf(c.Stderr, "cmp: EOF on %s after byte %d\n", short, pos)
				default:
					fmt.Fprintf(c.Stderr, "cmp: EOF on %s after byte %d, in line %d\n", short, pos, line)
				}
			}
			return command.Exit(1)
		}
		pos++
		if b0 != b1 {
			differ = true
			switch {
			case quiet:
				return command.Exit(1)
			case verbose:
				if printBytes {
					fmt.Fprintf(out, "%*d %3o %-4s %3o %s\n", width, pos, b0, cmpShow(b0), b1, cmpShow(b1))
				} else {
					fmt.Fprintf(out, "%*d %3o %3o\n", width, pos, b0, b1)
				}
			default:
				if printBytes {
					fmt.Fprintf(out, "%s %s differ: byte %d, line %d is %3o %s %3o %s\n", names[0], names[1], pos, line, b0, cmpShow(b0), b1, cmpShow(b1))
				} else {
					fmt.Fprintf(out, "%s %s differ: %s %d, line %d\n", names[0], names[1], cmpDifferWord(c), pos, line)
				}
				if err := cmdutil.Flush(out); err != nil {
					return cmdutil.Finish(c, "cmp", err)
				}
				return command.Exit(1)
			}
		}
		if b0 == '\n' {
			line++
		}
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, "cmp", err)
	}
	if differ {
		return command.Exit(1)
	}
	return nil
}

// cmpShow is a byte as cmp -b prints it: itself, ^X for a control, M-
// for the high bit.
func cmpShow(b byte) string {
	s := ""
	if b >= 0x80 {
		s = "M-"
		b -= 0x80
	}
	switch {
	case b < 0x20:
		return s + "^" + string(rune(b+'@'))
	case b == 0x7f:
		return s + "^?"
	}
	return s + string(rune(b))
}
