package shell

// Running a script on the interpreter, package shell/bash, with the
// session's commands, filesystem and umask.

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/agentenkit/agentenkit/shell/bash"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

// NotRun is the message of a command that could not start, for package
// bash ("NAME: command not found").
func (e *shExecError) NotRun() string { return e.Error() }

// runScript runs src as a whole shell script on package bash and returns
// its status and the folder it ended in. A syntax error runs the
// statements on the lines before it, then prints the error and gives
// status 2. ctx's end gives status TimeoutExitCode; the caller checks ctx.
func (s *session) runScript(ctx context.Context, src string, sp scriptSpec) (int, string) {
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
		Go:           goReuse,
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
			return s.dispatch(ctx, c, args)
		},
		Lookup: func(name, pathList, dir string) (string, string) {
			if strings.Contains(name, "/") {
				if p := s.lookPath(lookEnv{fsys: s.base, dir: dir, path: pathList}, name); p != "" {
					return "file", p
				}
				return "", ""
			}
			if p := s.pathLookup(dir, pathList, name); p != "" {
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

// pathLookup finds name as bash does, in the folders of pathList in
// order: an executable file, or in /usr/bin or /bin one of the session's
// commands (a handler, a command built in, the fallback's), which live
// there as on a Debian box; else the first
// regular file without an execute bit, as bash reports it; "" for none.
// A relative folder gives a relative path ("_tmp/date").
func (s *session) pathLookup(dir, pathList, name string) string {
	if name == "" || pathList == "" {
		return ""
	}
	_, handled := s.handlers[name]
	_, builtin := lookupBuiltin(name)
	ours := handled || builtin || s.fbNames[name]
	noExec := ""
	for _, d := range strings.Split(pathList, ":") {
		if d == "" {
			d = "."
		}
		cand := path.Join(d, name)
		abs := shAbs(dir, cand)
		if fi, err := s.look.Stat(abs); err == nil && fi.Mode().IsRegular() {
			if fi.Mode().Perm()&0o111 != 0 {
				return cand
			}
			if noExec == "" {
				noExec = cand
			}
			continue
		}
		if c := path.Clean(d); ours && (c == "/usr/bin" || c == "/bin") {
			return cand
		}
	}
	return noExec
}
