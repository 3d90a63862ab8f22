// Package awk is a POSIX awk interpreter with the common gawk and onetrue
// awk extensions (gensub, match's array, regex RS, RT, nextfile, fflush,
// delete of a whole array, **, func, bit functions, systime/strftime).
//
// It touches no host resource by itself: files are opened through
// Config.Open and Config.Create, and commands (system, cmd | getline,
// print | cmd) run through Config.Exec.
package awk

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
)

// Config is one run of an awk program.
type Config struct {
	// Program is the program's source text.
	Program string
	// Args are the operands after the program: input files ("-" is
	// standard input) and var=value assignments, run when reached. They are
	// ARGV[1], ARGV[2], ...
	Args []string
	// Vars are -v assignments, made before BEGIN. Values get escape
	// processing ("\t" is a tab), as on awk's command line.
	Vars map[string]string
	// FS is -F's argument (escape processed); "" keeps the default " ".
	FS string
	// Name is the program name for messages and ARGV[0]; "awk" if empty.
	Name string

	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	// Open opens a file for reading (input operands, getline < file).
	Open func(name string) (io.ReadCloser, error)
	// Create opens a file for writing: truncated, or appended to.
	Create func(name string, append bool) (io.WriteCloser, error)
	// Exec runs cmd as "sh -c cmd" and returns its exit status. A nil
	// stdout means awk's own; a nil stdin is the embedder's choice (the
	// shell gives the command an empty one). Output is flushed before.
	// An error means the command could not be run at all (a fatal error
	// of the program). Without Exec, system() and pipes are errors.
	Exec func(ctx context.Context, cmd string, stdin io.Reader, stdout io.Writer) (int, error)
	// Environ is ENVIRON.
	Environ map[string]string
}

// Error is a syntax or runtime error of a program, already reported on
// Config.Stderr.
type Error struct {
	Msg string
	// Syntax is true for an error found before the program ran.
	Syntax bool
}

func (e *Error) Error() string { return e.Msg }

// Run runs an awk program. It returns the exit status: the program's (from
// exit), or 2 after a syntax or runtime error, which it reports on
// Config.Stderr as "awk: ..." and also returns as an *Error. When ctx is
// done, Run stops and returns ctx.Err(). Run never panics.
func Run(ctx context.Context, cfg Config) (code int, err error) {
	name := cfg.Name
	if name == "" {
		name = "awk"
	}
	stderr := cfg.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprintf("internal error: %v", r)
			fmt.Fprintf(stderr, "%s: %s\n", name, msg)
			code, err = 2, &Error{Msg: msg + "\n" + string(debug.Stack())}
		}
	}()
	prog, perr := parse(cfg.Program)
	if perr != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, perr)
		return 2, &Error{Msg: perr.Error(), Syntax: true}
	}
	if err := ctx.Err(); err != nil {
		return 2, err
	}
	in := newInterp(ctx, &cfg, prog, name, stderr)
	stop := context.AfterFunc(ctx, func() { in.stopped.Store(true) })
	defer stop()
	return in.execute()
}

func newInterp(ctx context.Context, cfg *Config, prog *program, name string, stderr io.Writer) *interp {
	stdout := cfg.Stdout
	if stdout == nil {
		stdout = io.Discard
	}
	in := &interp{
		ctx:       ctx,
		cfg:       cfg,
		name:      name,
		prog:      prog,
		globals:   make([]cell, len(prog.globals)),
		globalIdx: make(map[string]int, len(prog.globals)),
		fs:        " ",
		ofs:       " ",
		ors:       "\n",
		rs:        "\n",
		subsep:    "\x1c",
		convfmt:   "%.6g",
		ofmt:      "%.6g",
		rlength:   -1,
		out:       bufio.NewWriterSize(stdout, 32<<10),
		stderr:    stderr,
		outputs:   map[string]*outStream{},
		inputs:    map[string]*inStream{},
		regexes:   map[string]*regexp.Regexp{},
		rng:       rand.New(rand.NewSource(0)),
		argi:      1,
	}
	for i, n := range prog.globals {
		in.globalIdx[n] = i
	}
	env := make(map[string]value, len(cfg.Environ))
	for k, v := range cfg.Environ {
		env[k] = strnum(v)
	}
	in.globals[0] = cell{k: cArray, a: env}
	argv := map[string]value{"0": str(name)}
	for i, a := range cfg.Args {
		argv[itoa(i+1)] = strnum(a)
	}
	in.globals[1] = cell{k: cArray, a: argv}
	in.argc = num(float64(len(cfg.Args) + 1))
	return in
}

func (in *interp) execute() (code int, err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		switch x := r.(type) {
		case stopPanic:
			in.safeClose(false)
			code, err = 2, in.ctx.Err()
			if err == nil {
				err = context.Canceled
			}
		case *runtimeError:
			in.safeClose(true)
			msg := x.msg
			if in.writeErr != nil && isClosedPipe(in.writeErr) {
				// The reader went away (awk ... | head): stop quietly.
				code, err = 2, &Error{Msg: msg}
				return
			}
			where := fmt.Sprintf("line %d: ", in.line)
			if in.line == 0 {
				where = ""
			}
			ctx := ""
			if in.inMain {
				ctx = fmt.Sprintf(" (FILENAME=%s FNR=%d)", in.toStr(in.filename), int64(in.fnr))
			}
			full := where + msg + ctx
			fmt.Fprintf(in.stderr, "%s: %s\n", in.name, full)
			code, err = 2, &Error{Msg: full}
		default:
			panic(r)
		}
	}()
	// -v assignments, in a stable order.
	names := make([]string, 0, len(in.cfg.Vars))
	for n := range in.cfg.Vars {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !isName(n) {
			in.errorf("invalid -v variable name %q", n)
		}
		in.assignVarByName(n, unescape(in.cfg.Vars[n]))
	}
	if in.cfg.FS != "" {
		in.fs = unescape(in.cfg.FS)
	}
	in.runProgram()
	in.closeAll(true)
	if in.writeErr != nil {
		if isClosedPipe(in.writeErr) {
			return 2, nil
		}
		fmt.Fprintf(in.stderr, "%s: write error: %v\n", in.name, in.writeErr)
		return 2, &Error{Msg: "write error: " + in.writeErr.Error()}
	}
	code = in.exitCode & 0xff
	if code == 0 && in.errCode != 0 {
		code = in.errCode
	}
	return code, nil
}

// safeClose ends the streams after an error, never panicking.
func (in *interp) safeClose(runPipes bool) {
	defer func() { _ = recover() }()
	in.closeAll(runPipes)
}

func isClosedPipe(err error) bool {
	if errors.Is(err, io.ErrClosedPipe) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "broken pipe") || strings.Contains(s, "closed pipe")
}
