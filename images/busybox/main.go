//go:build wasip1

// Command busybox is the wasm adapter's shell image: the project's shell
// (package shell, bash's language with Go coreutils) built for GOOS=wasip1.
// `make images` builds it into the images folder as busybox.wasm, a
// reactor whose warm shells the engine starts from a snapshot taken after
// Go's init (reactor.go):
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o busybox.wasm ./images/busybox
//
// Built without -buildmode it is a command module, which the engine runs
// too (each warm shell then pays Go's init).
// It runs as `sh -c SCRIPT [NAME [ARGS...]]` (or bash, or a script file and
// its arguments, or a script on stdin) over the files WASI gives it — the
// sandbox's, mounted at "/" by the host — with the environment WASI gives it
// and the folder $PWD names. python3 (python, python3.X for the python
// image's version) runs as a new instance of the python image, started by
// the host on the same files with wired stdio; anything else unknown is
// "command not found" (127). The host gives the python image's version in
// $AGENTENKIT_PYTHON_VERSION (pythonEnv), which the shell does not see.
package main

import (
	"context"
	"os"
	"strings"

	"github.com/agentenkit/agentenkit/shell"
	"github.com/agentenkit/agentenkit/shell/pip"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

// pythonEnv is the wasm adapter's pythonVersionEnv: the CPython version of
// the python image ("3.11.2"), which run takes out of the environment.
const pythonEnv = "AGENTENKIT_PYTHON_VERSION"

// pythonExeEnv gives a python3 child the path it was run by when that is
// not /usr/bin's (shell.Call.Path): sitecustomize makes it sys.executable
// and takes it out of the environment.
const pythonExeEnv = "AGENTENKIT_PYTHON_EXE"

// pythonName is python3.X for CPython version py (pip.DefaultPython's
// when empty).
func pythonName(py string) string {
	if py == "" {
		py = pip.DefaultPython
	}
	major, rest, _ := strings.Cut(py, ".")
	minor, _, _ := strings.Cut(rest, ".")
	return "python" + major + "." + minor
}

// hostNames are the commands other images answer: python's (for CPython
// version py) and node's; and pip3.X, the shell's pip (pip and pip3 are
// the shell's own) under the name of that version's pip.
func hostNames(py string) []string {
	return []string{"python", "python3", pythonName(py), "pip" + strings.TrimPrefix(pythonName(py), "python"), "node", "nodejs"}
}

func main() {
	if os.Getenv(warmEnv) == "1" {
		serve()
		return
	}
	dir, err := os.Getwd()
	if err != nil || dir == "" {
		dir = "/"
	}
	os.Exit(run(os.Args, environ(os.Environ()), dir))
}

// environ turns K=V pairs into a map.
func environ(kvs []string) map[string]string {
	env := map[string]string{}
	for _, kv := range kvs {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return env
}

// run runs argv as sh or bash does, with env as the whole environment, in
// dir, and returns the exit status.
//
// `busybox --list` prints the commands the shell runs itself, one a line,
// as /usr/bin lists them (shell.SystemCommands), for the wasm adapter to
// show the same /usr/bin to the sandbox's other programs.
func run(argv []string, env map[string]string, dir string) int {
	py := env[pythonEnv]
	delete(env, pythonEnv)
	if len(argv) == 2 && argv[0] == "busybox" && argv[1] == "--list" {
		names := posixfs.CommandNames(shell.SystemCommands(commands(py)))
		if _, err := os.Stdout.WriteString(strings.Join(names, "\n") + "\n"); err != nil {
			return 1
		}
		return 0
	}
	name := "bash"
	script := `bash "$@"` // a file or stdin: the shell's own bash builtin
	params := argv[1:]
	if len(argv) >= 3 && argv[1] == "-c" {
		script, params = argv[2], nil
		if len(argv) > 3 {
			name, params = argv[3], argv[4:]
		}
	}
	opts := commands(py)
	opts.FS, opts.Dir, opts.Env = shell.WASIFS(), dir, env
	opts.Stdin, opts.Stdout, opts.Stderr = os.Stdin, os.Stdout, os.Stderr
	opts.Name, opts.Args = name, params
	code, _ := shell.Run(pip.WithPython(context.Background(), py), script, opts)
	return code
}

// commands are the shell's command tables for CPython version py: what it
// runs besides its own commands.
func commands(py string) shell.Options {
	return shell.Options{Fallback: fallback(pythonName(py)), FallbackNames: hostNames(py)}
}

// fallback runs the names the shell does not know itself; python3X is
// python3.X of the python image (and pip3.X its pip).
func fallback(python3X string) shell.Builtin {
	pip3X := "pip" + strings.TrimPrefix(python3X, "python")
	return func(ctx context.Context, c *shell.Call, args []string) error {
		switch args[0] {
		case pip3X:
			return pip.Main(ctx, c, args)
		case "python", "python3", python3X:
			// `python3 -m pip ...` is the shell's pip (shell/pip): the
			// sandbox's CPython cannot run the real one.
			if len(args) >= 3 && args[1] == "-m" && args[2] == "pip" {
				return pip.Main(ctx, c, append([]string{"pip"}, args[3:]...))
			}
			if c.Path != "" {
				// run through another path (a virtual environment's
				// bin/python): CPython's sys.executable, by which it
				// finds the environment (the engine's sitecustomize)
				cc, environ := *c, c.Environ
				cc.Environ = func() []string { return append(environ(), pythonExeEnv+"="+cc.Path) }
				c = &cc
			}
			return shell.HostImage("python")(ctx, c, args)
		case "node", "nodejs":
			return shell.HostImage("node")(ctx, c, args)
		case "sh", "bash":
			return shell.HostImage("busybox")(ctx, c, args)
		}
		return shell.NotFound(args[0])
	}
}
