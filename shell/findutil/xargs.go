package findutil

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/fileutil"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/shell/quotearg"
)

func init() { command.Register(posixfs.Strictly(fsXargs), "xargs") }

type fsXargsOpts struct {
	delim     int // -1: blanks and quotes
	maxArgs   int // -n
	maxLines  int // -L
	replace   string
	noEmpty   bool
	trace     bool
	maxChars  int
	eofStr    string
	inputFile string
}

// fsXargs is xargs: build command lines from stdin's items (blank
// separated with quotes and backslashes, or -0 / -d DELIM) and run them
// (default echo) through the shell's lookup: -n MAX, -L MAX, -I REPL (one
// line each, REPL replaced), -i[REPL], -r, -t, -s SIZE, -a FILE, -E EOF,
// -x; -P is accepted (commands run one at a time). The commands read an
// empty stdin. Status 123 if a command failed, 124 if one exited 255, 126
// or 127 if one could not run.
func fsXargs(ctx context.Context, c *command.Call, args []string) error {
	pre := fsXargsPrescan(args[1:])
	opts, cmd, err := cmdutil.Parse(cmdutil.Flags{Short: "0d:n:L:l:I:rtP:s:xa:E:op", StopAtOperand: true, Long: map[string]string{
		"null": "0", "delimiter": "d:", "max-args": "n:", "max-lines": "L:", "replace": "I:",
		"no-run-if-empty": "r", "verbose": "t", "max-procs": "P:", "max-chars": "s:", "exit": "x",
		"arg-file": "a:", "eof": "E:", "open-tty": "o", "interactive": "p",
	}}, pre)

	if err != nil {
		return cmdutil.Usage(c, "xargs", 1, err)
	}
	o := fsXargsOpts{delim: -1, maxChars: 128 << 10}
	for _, op := range opts {
		switch op.Key {
		case "0":
			o.delim = 0
		case "d":
			d := fileutil.Escapes(op.Val)
			if len(d) != 1 {
				posixfs.Warn(c, "xargs", "invalid input delimiter specification %s: the delimiter must be either a single character or an escape sequence starting with \\.", op.Val)
				return command.Exit(1)
			}
			o.delim = int(d[0])
		case "n", "L", "l", "s", "P":
			n, err := strconv.Atoi(op.Val)
			if err != nil || n < 0 || (n == 0 && op.Key != "P") {
				posixfs.Warn(c, "xargs", "invalid number %s for -%s option", quotearg.Quote(op.Val), op.Key)
				return command.Exit(1)
			}
			switch op.Key {
			case "n":
				o.maxArgs = n
			case "L", "l":
				o.maxLines = n
			case "s":
				o.maxChars = n
			}
		case "I":
			o.replace = op.Val
		case "r":
			o.noEmpty = true
		case "t":
			o.trace = true
		case "E":
			o.eofStr = op.Val
		case "a":
			o.inputFile = op.Val
		}
	}
	if len(cmd) == 0 {
		cmd = []string{"echo"}
	}
	in := c.Stdin
	if o.inputFile != "" {
		f, err := c.FS.Open(c.Abs(o.inputFile))
		if err != nil {
			posixfs.Warn(c, "xargs", "Cannot open input file %s: %s", quotearg.Quote(o.inputFile), posixfs.ErrText(err))
			return command.Exit(1)
		}
		defer f.Close()
		in = f
	}
	rd := &fsXargsReader{br: bufio.NewReader(posixfs.ContextReader(ctx, in)), o: &o}
	x := &fsXargsRun{ctx: ctx, c: c, o: &o, cmd: cmd}
	var batch []string
	size, lines := 0, 0
	ran := false
	for {
		item, eol, err := rd.next()
		if err != nil && err != io.EOF {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			posixfs.Warn(c, "xargs", "%s", err)
			return command.Exit(1)
		}
		if err == nil {
			if o.replace != "" {
				if stop := x.run(x.replaced(item)); stop != nil {
					return stop
				}
				ran = true
				continue
			}
			batch = append(batch, item)
			size += len(item) + 1
			if eol {
				lines++
			}
			full := (o.maxArgs > 0 && len(batch) >= o.maxArgs) ||
				(o.maxLines > 0 && lines >= o.maxLines) || size >= o.maxChars
			if full {
				if stop := x.run(append(append([]string{}, cmd...), batch...)); stop != nil {
					return stop
				}
				ran = true
				batch, size, lines = nil, 0, 0
			}
			continue
		}
		break // EOF
	}
	if len(batch) > 0 || (!ran && !o.noEmpty && o.replace == "") {
		if stop := x.run(append(append([]string{}, cmd...), batch...)); stop != nil {
			return stop
		}
	}
	return command.Exit(x.status)
}

// fsXargsPrescan rewrites xargs' options with optional arguments (-i[R],
// -e[EOF]) into their -I and -E forms, leaving the command alone.
func fsXargsPrescan(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") || a == "-" {
			return append(out, args[i:]...)
		}
		if strings.HasPrefix(a, "--") {
			out = append(out, a)
			if !strings.Contains(a, "=") && fsXargsLongArg[a] && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
			continue
		}
		for j := 1; j < len(a); j++ {
			switch ch := a[j]; {
			case ch == 'i' || ch == 'e':
				if j > 1 {
					out = append(out, "-"+a[1:j])
				}
				val := a[j+1:]
				if ch == 'i' && val == "" {
					val = "{}"
				}
				out = append(out, "-"+strings.ToUpper(string(ch))+val)
				if ch == 'e' && val == "" {
					out[len(out)-1] = "-E"
					out = append(out, "")
				}
				j = len(a)
			case strings.IndexByte("dnLlIsPaE", ch) >= 0:
				out = append(out, a)
				if j == len(a)-1 && i+1 < len(args) {
					i++
					out = append(out, args[i])
				}
				j = len(a)
			case j == len(a)-1:
				out = append(out, a)
			}
		}
	}
	return out
}

var fsXargsLongArg = map[string]bool{
	"--delimiter": true, "--max-args": true, "--max-lines": true, "--replace": true,
	"--max-procs": true, "--max-chars": true, "--arg-file": true, "--eof": true,
}

// fsXargsRun runs xargs' command lines and keeps its status.
type fsXargsRun struct {
	ctx    context.Context
	c      *command.Call
	o      *fsXargsOpts
	cmd    []string
	status int
}

func (x *fsXargsRun) replaced(item string) []string {
	argv := make([]string, len(x.cmd))
	for i, a := range x.cmd {
		argv[i] = strings.ReplaceAll(a, x.o.replace, item)
	}
	return argv
}

// run runs one command line; a non-nil result ends xargs with it.
func (x *fsXargsRun) run(argv []string) error {
	if err := x.ctx.Err(); err != nil {
		return err
	}
	c := x.c
	if x.o.trace {
		fmt.Fprintln(c.Stderr, strings.Join(argv, " "))
	}
	oldIn := c.Stdin
	c.Stdin = strings.NewReader("")
	err := c.Exec(x.ctx, argv)
	c.Stdin = oldIn
	if err := x.ctx.Err(); err != nil {
		return err
	}
	switch code := command.ExitCode(err); {
	case code == 0:
	case errors.Is(err, command.ErrNotFound):
		posixfs.Warn(c, "xargs", "%s: No such file or directory", argv[0])
		return command.Exit(127)
	case code == 126:
		posixfs.Warn(c, "xargs", "%s: Permission denied", argv[0])
		return command.Exit(126)
	case code == 255:
		posixfs.Warn(c, "xargs", "%s: exited with status 255; aborting", argv[0])
		return command.Exit(124)
	case code > 128:
		posixfs.Warn(c, "xargs", "%s: terminated by signal %d", argv[0], code-128)
		return command.Exit(125)
	default:
		x.status = 123
	}
	return nil
}

// fsXargsReader splits xargs' input into items.
type fsXargsReader struct {
	br   *bufio.Reader
	o    *fsXargsOpts
	done bool
}

// next returns the next item and whether it ended a line (for -L), or
// io.EOF.
func (r *fsXargsReader) next() (string, bool, error) {
	if r.done {
		return "", false, io.EOF
	}
	if r.o.delim >= 0 {
		s, err := r.br.ReadString(byte(r.o.delim))
		if err == io.EOF {
			if s == "" {
				return "", false, io.EOF
			}
		} else if err != nil {
			return "", false, err
		} else {
			s = s[:len(s)-1]
		}
		return r.checkEOF(s, true)
	}
	var b strings.Builder
	started := false
	for {
		ch, err := r.br.ReadByte()
		if err == io.EOF {
			if started {
				return r.checkEOF(b.String(), true)
			}
			return "", false, io.EOF
		}
		if err != nil {
			return "", false, err
		}
		switch {
		case ch == '\n':
			if started {
				return r.checkEOF(b.String(), true)
			}
		case (ch == ' ' || ch == '\t') && r.o.replace == "":
			if started {
				return r.checkEOF(b.String(), r.restBlank())
			}
		case (ch == ' ' || ch == '\t') && !started:
			// -I: leading blanks are dropped.
		case ch == '\'' || ch == '"':
			started = true
			for {
				q, err := r.br.ReadByte()
				if err != nil || q == '\n' {
					kind := "single"
					if ch == '"' {
						kind = "double"
					}
					return "", false, fmt.Errorf("unmatched %s quote; by default quotes are special to xargs unless you use the -0 option", kind)
				}
				if q == ch {
					break
				}
				b.WriteByte(q)
			}
		case ch == '\\':
			started = true
			if n, err := r.br.ReadByte(); err == nil {
				b.WriteByte(n)
			}
		default:
			started = true
			b.WriteByte(ch)
		}
	}
}

// restBlank tells whether only blanks are left on the current line.
func (r *fsXargsReader) restBlank() bool {
	for i := 1; ; i++ {
		p, err := r.br.Peek(i)
		if err != nil {
			return true
		}
		switch p[i-1] {
		case '\n':
			return true
		case ' ', '\t':
		default:
			return false
		}
	}
}

// checkEOF ends the input at -E's string.
func (r *fsXargsReader) checkEOF(s string, eol bool) (string, bool, error) {
	if r.o.eofStr != "" && s == r.o.eofStr {
		r.done = true
		return "", false, io.EOF
	}
	return s, eol, nil
}
