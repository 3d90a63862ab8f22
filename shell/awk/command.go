package awk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/shell/command"
)

func init() {
	command.Register(awkBuiltin, "awk", "gawk", "mawk", "nawk")
}

const awkUsage = "usage: awk [-F fs] [-v var=value] [-f progfile | 'program'] [file ...]"

// awkBuiltin is awk over the call's filesystem: -F fs, -v var=value,
// -f progfile (repeatable), -e/--source program text, and "--".
func awkBuiltin(ctx context.Context, c *command.Call, args []string) error {
	name := path.Base(args[0])
	var (
		fsArg     string
		vars      = map[string]string{}
		progFiles []string
		sources   []string
	)
	i := 1
	needArg := func(opt string) (string, error) {
		if i+1 >= len(args) {
			return "", c.Errorf(2, name, "option %s needs an argument\n%s", opt, awkUsage)
		}
		i++
		return args[i], nil
	}
	addVar := func(a string) error {
		eq := strings.IndexByte(a, '=')
		if eq <= 0 {
			return c.Errorf(2, name, "invalid -v argument %q: want var=value", a)
		}
		vars[a[:eq]] = a[eq+1:]
		return nil
	}
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		var err error
		switch {
		case a == "-F":
			fsArg, err = needArg(a)
		case strings.HasPrefix(a, "--field-separator="):
			fsArg = strings.TrimPrefix(a, "--field-separator=")
		case strings.HasPrefix(a, "-F"):
			fsArg = a[2:]
		case a == "-v" || a == "--assign":
			var v string
			if v, err = needArg(a); err == nil {
				err = addVar(v)
			}
		case strings.HasPrefix(a, "--assign="):
			err = addVar(strings.TrimPrefix(a, "--assign="))
		case strings.HasPrefix(a, "-v"):
			err = addVar(a[2:])
		case a == "-f" || a == "--file":
			var f string
			if f, err = needArg(a); err == nil {
				progFiles = append(progFiles, f)
			}
		case strings.HasPrefix(a, "--file="):
			progFiles = append(progFiles, strings.TrimPrefix(a, "--file="))
		case strings.HasPrefix(a, "-f"):
			progFiles = append(progFiles, a[2:])
		case a == "-e" || a == "--source":
			var s string
			if s, err = needArg(a); err == nil {
				sources = append(sources, s)
			}
		case a == "--version" || a == "-V":
			fmt.Fprintln(c.Stdout, "awk (agentenkit) 1.0: POSIX awk with common gawk extensions")
			return nil
		case a == "--help" || a == "-h":
			fmt.Fprintln(c.Stdout, awkUsage)
			return nil
		case a == "--posix" || a == "--traditional" || a == "-P" || a == "--re-interval" || a == "-r":
			// Accepted and ignored: the dialect is fixed.
		default:
			return c.Errorf(2, name, "unknown option %s\n%s", a, awkUsage)
		}
		if err != nil {
			return err
		}
	}
	var program string
	if len(progFiles) == 0 && len(sources) == 0 {
		if i >= len(args) {
			return c.Errorf(2, name, "no program given\n%s", awkUsage)
		}
		program = args[i]
		i++
	} else {
		var parts []string
		for _, f := range progFiles {
			var b []byte
			var err error
			if f == "-" || f == "/dev/stdin" {
				b, err = io.ReadAll(c.Stdin)
			} else {
				b, err = afero.ReadFile(c.FS, c.Abs(f))
			}
			if err != nil {
				return c.Errorf(2, name, "can't open program file %s: %s", f, awkErrText(err))
			}
			parts = append(parts, string(b))
		}
		parts = append(parts, sources...)
		program = strings.Join(parts, "\n")
	}
	if fsArg == "t" {
		fsArg = "\t" // as onetrue awk and gawk do
	}
	env := map[string]string{}
	if c.Environ != nil {
		for _, kv := range c.Environ() {
			if eq := strings.IndexByte(kv, '='); eq > 0 {
				env[kv[:eq]] = kv[eq+1:]
			}
		}
	}
	code, err := Run(ctx, Config{
		Program: program,
		Args:    args[i:],
		Vars:    vars,
		FS:      fsArg,
		Name:    name,
		Stdin:   c.Stdin,
		Stdout:  c.Stdout,
		Stderr:  c.Stderr,
		Open: func(file string) (io.ReadCloser, error) {
			f, err := c.FS.Open(c.Abs(file))
			if err != nil {
				return nil, err
			}
			if fi, err := f.Stat(); err == nil && fi.IsDir() {
				f.Close()
				return nil, &fs.PathError{Op: "open", Path: file, Err: errors.New("is a directory")}
			}
			return f, nil
		},
		Create: func(file string, appendTo bool) (io.WriteCloser, error) {
			flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
			if appendTo {
				flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
			}
			return c.FS.OpenFile(c.Abs(file), flag, 0o644)
		},
		Exec: func(ctx context.Context, cmd string, stdin io.Reader, stdout io.Writer) (int, error) {
			return awkRunCommand(ctx, c, cmd, stdin, stdout)
		},
		Environ: env,
	})
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return command.Exit(code)
}

// awkRunCommand runs cmd as "sh -c cmd" for system(), cmd | getline and
// print | cmd. A nil stdout is the call's own. A nil stdin is empty: awk
// owns its standard input, and a nested shell would otherwise read it (in
// a goroutine of its own) while awk does.
//
// Call.Exec runs with c's fields as they are when it is called, so for a
// pipe c.Stdin or c.Stdout is swapped for the duration of the call. Without
// Exec, the sh builtin is called with a copy of c.
func awkRunCommand(ctx context.Context, c *command.Call, cmd string, stdin io.Reader, stdout io.Writer) (int, error) {
	argv := []string{"sh", "-c", cmd}
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var err error
	switch sh, haveSh := command.Lookup("sh"); {
	case c.Exec != nil:
		if stdin != nil || stdout != nil {
			savedIn, savedOut := c.Stdin, c.Stdout
			if stdin != nil {
				c.Stdin = stdin
			}
			if stdout != nil {
				c.Stdout = stdout
			}
			defer func() { c.Stdin, c.Stdout = savedIn, savedOut }()
		}
		err = c.Exec(ctx, argv)
	case haveSh:
		cc := *c
		if stdin != nil {
			cc.Stdin = stdin
		}
		if stdout != nil {
			cc.Stdout = stdout
		}
		err = sh(ctx, &cc, argv)
	default:
		return 0, errors.New("no shell (sh) to run commands with")
	}
	if err == nil {
		return 0, nil
	}
	if errors.Is(err, command.ErrNotFound) {
		// sh itself is missing (a command missing inside sh -c is sh's
		// status 127, reported by sh).
		return 0, fmt.Errorf("no shell (sh) to run commands with: %v", err)
	}
	if st, ok := command.StatusOf(err); ok {
		return int(st), nil
	}
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	return 0, fmt.Errorf("sh -c: %w", err)
}

func awkErrText(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}
