package shell

// The project's own interpreter (package shell/bash), the default; the
// former one on mvdan.cc/sh's interp stays behind Options.Interpreter
// "mvdan" until it is deleted.

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"github.com/agentenkit/agentenkit/shell/bash"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

// Options.Interpreter values: the project's own interpreter (package
// shell/bash, the default) and mvdan.cc/sh's former one.
const (
	InterpreterNew   = "new"
	InterpreterMvdan = "mvdan"
)

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// NotRun is the message of a command that could not start, for package
// bash ("NAME: command not found").
func (e *shExecError) NotRun() string { return e.Error() }

// runScriptNew is runScript on package bash.
func (s *session) runScriptNew(ctx context.Context, src string, sp scriptSpec) (int, string) {
	env := make(map[string]string, len(sp.env))
	for _, kv := range sp.env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	final := sp.dir
	code, err := bash.Run(ctx, src, bash.Options{
		FS:           s.base,
		Dir:          sp.dir,
		Env:          env,
		Stdin:        sp.stdin,
		Stdout:       sp.stdout,
		Stderr:       sp.stderr,
		Name:         sp.name,
		SyntaxPrefix: sp.errPfx,
		Args:         sp.params,
		Flags:        sp.flags,
		FinalDir:     &final,
		Umask: func(set bool, mask uint32) uint32 {
			if set {
				posixfs.SetUmask(s.base, fs.FileMode(mask))
			}
			return uint32(posixfs.UmaskOf(s.base))
		},
		Exec: func(ctx context.Context, c *Call, args []string) error {
			if shTooDeep() {
				return fmt.Errorf("maximum function nesting level exceeded")
			}
			c.FS = posixfs.WithDev(s.base, c.Stdin, c.Stdout, c.Stderr)
			return commandStatus(s.dispatch(ctx, c, args))
		},
		Lookup: func(name, pathList, dir string) (string, string) {
			if p := s.lookPath(lookEnv{fsys: s.base, dir: dir, path: pathList}, name); p != "" {
				return "file", p
			}
			return "", ""
		},
	})
	if err != nil && ctx.Err() == nil {
		return 2, final
	}
	return code, final
}
