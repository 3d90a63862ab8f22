// Package bc is GNU bc 1.07: the POSIX language (arbitrary-precision
// decimal numbers with a scale, ibase/obase, variables and arrays,
// define/auto with dynamic scope, if/while/for, break, continue, return,
// strings) with GNU's extensions (print, read(), else, &&, ||, !, halt,
// last and ".", continue, limits, warranty, # comments, long names, array
// parameters by reference), -l and its math library (s, c, a, l, e, j at
// scale 20), GNU's output (numbers in any obase, lines broken with a
// backslash at BC_LINE_LENGTH, 70 by default, 0 for none) and GNU's
// messages: "(standard_in) N: syntax error" and the like for what does
// not parse, "Runtime error (func=F, adr=A): ..." with the address of the
// operation in GNU's byte code. Like GNU bc it exits 0 after errors in the
// program, 1 for a file it cannot open or a bad option. -s and -w (POSIX
// checks) are refused. Importing the package registers it (shell/command).
//
// A program that does not end stops at the command's deadline.
package bc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(bc, "bc") }

const usage = `usage: %s [options] [file ...]
  -h  --help         print this usage and exit
  -i  --interactive  force interactive mode
  -l  --mathlib      use the predefined math routines
  -q  --quiet        don't print initial banner
  -s  --standard     non-standard bc constructs are errors
  -w  --warn         warn about non-standard bc constructs
  -v  --version      print version information and exit
`

const version = "bc 1.07.1\nCopyright 1991-1994, 1997, 1998, 2000, 2004, 2006, 2008, 2012-2017 Free Software Foundation, Inc.\n"

// outWriter is GNU bc's out_char: it breaks lines longer than its width
// with a backslash.
type outWriter struct {
	w     *bufio.Writer
	col   int
	width int // 0: no breaking
	err   error
}

func (o *outWriter) char(c byte) {
	if c == '\n' {
		o.col = 0
		_ = o.w.WriteByte(c)
		return
	}
	o.col++
	if o.width != 0 && o.col == o.width-1 {
		_, _ = o.w.WriteString("\\\n")
		o.col = 1
	}
	_ = o.w.WriteByte(c)
}

// str writes s unbroken (the limits and warranty texts).
func (o *outWriter) str(s string) {
	_, _ = o.w.WriteString(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		o.col = len(s) - i - 1
	}
}

func (o *outWriter) flush() {
	if err := o.w.Flush(); err != nil && o.err == nil {
		o.err = err
	}
}

// lineWidth is BC_LINE_LENGTH as GNU bc reads it: atoi's value, 70 when
// unset or below 3 (but 0 turns breaking off).
func lineWidth(c *command.Call) int {
	v, ok := c.Env("BC_LINE_LENGTH")
	if !ok {
		return 70
	}
	n := atoi(v)
	if n == 0 {
		return 0
	}
	if n < 3 {
		return 70
	}
	return n
}

// atoi is C's atoi: leading blanks, a sign, digits; 0 when none.
func atoi(s string) int {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	end := 0
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(s[:end])
	if err != nil {
		if end > 1 && s[0] == '-' {
			return -1
		}
		if end > 0 && s[:end] != "-" && s[:end] != "+" {
			return 1 << 30
		}
		return 0
	}
	return n
}

func bc(ctx context.Context, c *command.Call, args []string) error {
	mathlib := false
	var files []string
	opts := true
	for _, a := range args[1:] {
		if !opts || a == "-" || !strings.HasPrefix(a, "-") {
			files = append(files, a)
			continue
		}
		if a == "--" {
			opts = false
			continue
		}
		var flags []string
		if strings.HasPrefix(a, "--") {
			long := map[string]string{"--help": "h", "--interactive": "i", "--mathlib": "l", "--quiet": "q",
				"--standard": "s", "--warn": "w", "--version": "v"}
			f, ok := long[a]
			if !ok {
				fmt.Fprintf(c.Stderr, "bc: unrecognized option '%s'\n", a)
				fmt.Fprintf(c.Stdout, usage, "bc")
				return command.Exit(1)
			}
			flags = []string{f}
		} else {
			for _, r := range a[1:] {
				flags = append(flags, string(r))
			}
		}
		for _, f := range flags {
			switch f {
			case "h":
				fmt.Fprintf(c.Stdout, usage, "bc")
				return nil
			case "v":
				fmt.Fprint(c.Stdout, version)
				return nil
			case "l":
				mathlib = true
			case "i", "q":
			case "s", "w":
				return c.Errorf(1, "bc", "-%s (POSIX bc checks) is not supported in this sandbox", f)
			default:
				fmt.Fprintf(c.Stderr, "bc: invalid option -- '%s'\n", f)
				fmt.Fprintf(c.Stdout, usage, "bc")
				return command.Exit(1)
			}
		}
	}
	out := &outWriter{w: bufio.NewWriter(c.Stdout), width: lineWidth(c)}
	in := newInterp(ctx, out, c.Stderr)
	defer out.flush()
	if mathlib {
		in.name = "(library)"
		if _, err := in.runInput(strings.NewReader(mathLibrary)); err != nil {
			return err
		}
	}
	stdin := bufio.NewReader(c.Stdin)
	for _, f := range files {
		if f == "-" {
			// GNU bc reads standard input after the files only.
			continue
		}
		fh, err := c.FS.Open(c.Abs(f))
		if err != nil {
			out.flush()
			fmt.Fprintf(c.Stderr, "File %s is unavailable.\n", f)
			return command.Exit(1)
		}
		in.name = f
		in.stdin = stdin
		quit, err := in.runInput(fh)
		fh.Close()
		if err != nil {
			return err
		}
		if quit {
			return nil
		}
	}
	in.name = "(standard_in)"
	in.stdin = nil
	if _, err := in.runInput(stdin); err != nil {
		return err
	}
	out.flush()
	return out.err
}

// runInput parses and runs one input. It returns true when the program
// quit or halted.
func (in *interp) runInput(r io.Reader) (bool, error) {
	p := &parser{in: in, fn: in.funcs[0], label: 1}
	lx := newLexer(r, func(line int, msg string) {
		in.parseError(line, msg)
		p.hadError = true
	}, func() {
		in.out.flush()
		fmt.Fprintln(in.errw, "EOF encountered in a comment.")
	})
	p.lx = lx
	for {
		if err := in.ctx.Err(); err != nil {
			return false, err
		}
		more, run, err := p.item()
		if errors.Is(err, errQuit) {
			return true, nil
		}
		if err != nil && !errors.Is(err, errSyntax) {
			return false, err
		}
		if err != nil {
			// An error outside statements (a definition's head): the rest
			// of the line goes.
			if !p.skipLine() {
				return false, lx.err
			}
			continue
		}
		if run {
			if err := in.run(); err != nil {
				return false, err
			}
			if in.halted {
				return true, nil
			}
		}
		if !more {
			return false, lx.err
		}
	}
}
