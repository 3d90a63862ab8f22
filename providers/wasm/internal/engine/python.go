package engine

import (
	"bytes"
	"context"
	_ "embed"
	"io/fs"
	"path"
	"strings"
	"testing/fstest" // MapFS: a read-only in-memory fs.FS; it does not link package testing
	"time"
)

// Python is the image name that selects CPython's conventions in Run.
const Python = "python"

// IsPython reports whether name selects CPython's conventions: Python
// itself, or "python:" and anything (for example "python:" and the file's
// path, so that python images from two folders can be loaded apart).
func IsPython(name string) bool {
	return name == Python || strings.HasPrefix(name, Python+":")
}

// PythonSiteDir is where Run mounts, read-only, the folder holding the
// sitecustomize.py that starts Python in $PWD. It is first on PYTHONPATH.
const PythonSiteDir = "/usr/lib/agentenkit/python"

//go:embed python/sitecustomize.py
var sitecustomize []byte

// pythonSite is the folder mounted at PythonSiteDir: sitecustomize compiled
// to bytecode by the image itself, or its source when that fails. Compiling
// the source on every start costs about 25 ms of the 145 ms a
// `python -c 'print(1)'` takes; the .pyc costs under 1 ms.
func (img *Image) pythonSite(ctx context.Context) fs.FS {
	// An unchecked .pyc: magic, flags 0, 8 zero bytes (mtime and size; a
	// .pyc with no .py beside it is never checked against a source), then
	// the marshalled code. Source on stdin, .pyc on stdout.
	const compile = "import sys, marshal, importlib.util\n" +
		"code = compile(sys.stdin.buffer.read(), sys.argv[1], 'exec')\n" +
		"sys.stdout.buffer.write(importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code))\n"
	var pyc, errb bytes.Buffer
	code, err := img.run(ctx, RunSpec{
		Args:    []string{"python", "-S", "-c", compile, PythonSiteDir + "/sitecustomize.py"},
		Stdin:   bytes.NewReader(sitecustomize),
		Stdout:  &pyc,
		Stderr:  &errb,
		Timeout: 30 * time.Second,
	}, fstest.MapFS{})
	if err == nil && code == 0 && pyc.Len() > 16 {
		return fstest.MapFS{"sitecustomize.pyc": {Data: pyc.Bytes(), Mode: 0o444}}
	}
	return fstest.MapFS{"sitecustomize.py": {Data: sitecustomize, Mode: 0o444}}
}

// pythonEnv adds Python's defaults to env (a copy): PYTHONPATH starts with
// PythonSiteDir; PYTHONUNBUFFERED and PYTHONDONTWRITEBYTECODE are 1 unless
// set.
func pythonEnv(env map[string]string) {
	if p := env["PYTHONPATH"]; p != "" {
		env["PYTHONPATH"] = PythonSiteDir + ":" + p
	} else {
		env["PYTHONPATH"] = PythonSiteDir
	}
	for k, v := range map[string]string{"PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"} {
		if _, ok := env[k]; !ok {
			env[k] = v
		}
	}
}

// pythonArgs returns args (argv[0] first) with a relative script path made
// absolute against dir: CPython resolves it against "/" before site runs.
// It follows CPython's option syntax: -c and -m end the options with no
// script; -W, -X and --check-hash-based-pycs take a value; "-" is stdin.
func pythonArgs(args []string, dir string) []string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return withScript(args, i+1, dir)
			}
			return args
		case a == "-":
			return args
		case a == "--check-hash-based-pycs":
			i++
		case strings.HasPrefix(a, "--"):
			// --help, --version and the like: no value
		case strings.HasPrefix(a, "-"):
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'c', 'm':
					return args
				case 'W', 'X':
					if j == len(a)-1 {
						i++ // the value is the next argument
					}
					j = len(a)
				}
			}
		default:
			return withScript(args, i, dir)
		}
	}
	return args
}

func withScript(args []string, i int, dir string) []string {
	if path.IsAbs(args[i]) {
		return args
	}
	out := append([]string(nil), args...)
	out[i] = path.Join(dir, args[i])
	return out
}
