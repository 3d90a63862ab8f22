package engine

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing/fstest" // MapFS: a read-only in-memory fs.FS; it does not link package testing
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/agentenkit/agentenkit/internal/pyrepr"
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

// siteModules are the modules beside sitecustomize in PythonSiteDir: the
// network modules it loads when a program imports socket or ssl (see
// python/_agentenkit_net.py), and ensurepip for the shell's pip.
//
//go:embed python/_agentenkit_net.py python/_agentenkit_ssl.py python/ensurepip.py
var siteModules embed.FS

// withSiteModules adds siteModules to a site folder.
func withSiteModules(site fstest.MapFS) fstest.MapFS {
	for _, name := range []string{"_agentenkit_net.py", "_agentenkit_ssl.py", "ensurepip.py"} {
		b, _ := siteModules.ReadFile("python/" + name)
		site[name] = &fstest.MapFile{Data: b, Mode: 0o444}
	}
	return site
}

// PythonStdlibDir is where Run mounts, read-only, the image's own standard
// library taken out of its zip (see pythonSite). It is last on PYTHONPATH,
// after the caller's entries, so that it stands where the zip stood.
//
// An image with its standard library beside it (see stdlibBeside) has it
// mounted where its CPython looks by itself instead, and not on PYTHONPATH.
const PythonStdlibDir = "/usr/lib/agentenkit/python3.12"

// stdlibBeside reads the standard library of a Python image built by this
// project (images/pybuild): a zip named python3XY.zip in the folder of the
// image's wasm, holding what CPython 3.XY's `make install` puts in
// lib/python3.XY. It returns the zip and where to mount it: the folder
// CPython finds from its compiled-in prefix, /usr/local/lib/python3.XY, so
// that sys.path is CPython's own. ok is false when there is no such zip (the
// image keeps its library inside itself). More than one such zip, or one
// that cannot be read, is an error.
func stdlibBeside(wasmPath string) (z fs.FS, dir string, ok bool, err error) {
	found, err := filepath.Glob(filepath.Join(filepath.Dir(wasmPath), "python3*.zip"))
	if err != nil || len(found) == 0 {
		return nil, "", false, err
	}
	if len(found) > 1 {
		return nil, "", false, fmt.Errorf("more than one standard library beside the image: %v", found)
	}
	minor := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(found[0]), "python3"), ".zip")
	if _, err := strconv.ParseUint(minor, 10, 8); err != nil {
		return nil, "", false, fmt.Errorf("standard library %s: want python3XY.zip", found[0])
	}
	r, err := zip.OpenReader(found[0]) // open as long as the image is: read as the guest asks
	if err != nil {
		return nil, "", false, fmt.Errorf("standard library %s: %w", found[0], err)
	}
	return r, "/usr/local/lib/python3." + minor, true, nil
}

// pythonSite reads what Run mounts for a Python image, with one run of the
// image itself:
//
//   - site, the folder at PythonSiteDir: sitecustomize compiled to bytecode,
//     or its source when that fails. Compiling the source on every start
//     costs about 25 ms of a `python -c 'print(1)'`; the .pyc under 1 ms.
//   - stdlib, the image's standard library: the zip CPython finds its
//     modules in (python312.zip, inside the image), served from the host.
//     CPython's zipimport reads the zip's whole directory in Python code on
//     the first import, about 45 ms of every start; from a folder the
//     same modules cost a directory listing. Nil when the image has no
//     such zip or it cannot be read; then CPython reads its own.
//
// With a compilation cache both are kept in it under the image's content
// hash sum (loadModule) and the source's, so that the run is made once per
// image, not per process: the zip is then read from its file as the guest
// asks, never held in memory.
//
// An image with its own stdlib (stdlibBeside) runs with it mounted and
// keeps it (the caller ignores the stdlib returned here).
func (img *Image) pythonSite(ctx context.Context, sum string) (site, stdlib fs.FS) {
	var pycFile, zipFile string
	if dir := img.e.prepared; dir != "" && sum != "" {
		src := sha256.Sum256(sitecustomize)
		pycFile = filepath.Join(dir, fmt.Sprintf("%s-site-%x.pyc", sum, src[:8]))
		zipFile = filepath.Join(dir, sum+"-stdlib.zip")
		if site, stdlib, ok := cachedSite(pycFile, zipFile); ok {
			return site, stdlib
		}
	}
	// An unchecked .pyc: magic, flags 0, 8 zero bytes (mtime and size; a
	// .pyc with no .py beside it is never checked against a source), then
	// the marshalled code. Source on stdin; on stdout the .pyc's length in
	// 8 bytes, the .pyc, then the stdlib zip's bytes.
	const compile = "import sys, marshal, importlib.util\n" +
		"code = compile(sys.stdin.buffer.read(), sys.argv[1], 'exec')\n" +
		"pyc = importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code)\n" +
		"out = sys.stdout.buffer\n" +
		"out.write(len(pyc).to_bytes(8, 'little') + pyc)\n" +
		"for p in sys.path:\n" +
		"    if p.endswith('.zip'):\n" +
		"        try:\n" +
		"            with open(p, 'rb') as f: out.write(f.read())\n" +
		"        except OSError: pass\n" +
		"        break\n"
	var outb, errb bytes.Buffer
	code, err := img.run(ctx, RunSpec{
		Args:    []string{"python", "-S", "-c", compile, PythonSiteDir + "/sitecustomize.py"},
		Stdin:   bytes.NewReader(sitecustomize),
		Stdout:  &outb,
		Stderr:  &errb,
		Timeout: 30 * time.Second,
	}, fstest.MapFS{}, img.stdlib)
	site = withSiteModules(fstest.MapFS{"sitecustomize.py": {Data: sitecustomize, Mode: 0o444}})
	out := outb.Bytes()
	if err != nil || code != 0 || len(out) < 8 {
		return site, nil
	}
	n := binary.LittleEndian.Uint64(out)
	if n <= 16 || n > uint64(len(out)-8) {
		return site, nil
	}
	pyc, rest := out[8:8+n], out[8+n:]
	site = withSiteModules(fstest.MapFS{"sitecustomize.pyc": {Data: pyc, Mode: 0o444}})
	if len(rest) > 0 {
		if _, err := zip.NewReader(bytes.NewReader(rest), int64(len(rest))); err != nil {
			rest = nil // not a zip: CPython reads its own
		}
	}
	if pycFile != "" && writeCacheFile(zipFile, rest) && writeCacheFile(pycFile, pyc) {
		if site, stdlib, ok := cachedSite(pycFile, zipFile); ok {
			return site, stdlib
		}
	}
	if len(rest) > 0 {
		if z, err := zip.NewReader(bytes.NewReader(rest), int64(len(rest))); err == nil {
			stdlib = z
		}
	}
	return site, stdlib
}

// cachedSite returns the site folder and standard library pythonSite keeps
// in pycFile and zipFile (an empty zipFile: the image has no zip), when
// both are there and whole.
func cachedSite(pycFile, zipFile string) (site, stdlib fs.FS, ok bool) {
	pyc, err := os.ReadFile(pycFile)
	if err != nil || len(pyc) <= 16 {
		return nil, nil, false
	}
	fi, err := os.Stat(zipFile)
	if err != nil {
		return nil, nil, false
	}
	if fi.Size() > 0 {
		z, err := zip.OpenReader(zipFile)
		if err != nil {
			return nil, nil, false
		}
		stdlib = z // open as long as the image is: read as the guest asks
	}
	return withSiteModules(fstest.MapFS{"sitecustomize.pyc": {Data: pyc, Mode: 0o444}}), stdlib, true
}

// pythonEnv adds Python's defaults to env (a copy): PYTHONPATH starts with
// PythonSiteDir and, when stdlibPath is not "", ends with it;
// PYTHONUNBUFFERED and PYTHONDONTWRITEBYTECODE are 1 unless set.
func pythonEnv(env map[string]string, stdlibPath string) {
	p := PythonSiteDir
	if user := env["PYTHONPATH"]; user != "" {
		p += ":" + user
	}
	if stdlibPath != "" {
		p += ":" + stdlibPath
	}
	env["PYTHONPATH"] = p
	for k, v := range map[string]string{"PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"} {
		if _, ok := env[k]; !ok {
			env[k] = v
		}
	}
}

// pythonScriptEnv is set, in a new CPython's environment, when
// pythonArgs made the script's path absolute: "I:ARG", the script's index
// I in argv and the path ARG as the command gave it. sitecustomize takes it
// out of the environment and puts ARG back into sys.argv[0] and
// sys.orig_argv[I], as CPython leaves them.
const pythonScriptEnv = "AGENTENKIT_SCRIPT"

// pythonArgs returns args (argv[0] first) with a relative script path made
// absolute against dir, as CPython makes the script's __file__ (the folder,
// a slash and the path as given: no cleaning): CPython resolves it against
// "/" before site runs. i is the script's index when it did, else 0.
// It follows CPython's option syntax: -c and -m end the options with no
// script; -W, -X and --check-hash-based-pycs take a value; "-" is stdin.
func pythonArgs(args []string, dir string) (out []string, i int) {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return withScript(args, i+1, dir)
			}
			return args, 0
		case a == "-":
			return args, 0
		case a == "--check-hash-based-pycs":
			i++
		case strings.HasPrefix(a, "--"):
			// --help, --version and the like: no value
		case strings.HasPrefix(a, "-"):
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'c', 'm':
					return args, 0
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
	return args, 0
}

func withScript(args []string, i int, dir string) ([]string, int) {
	if path.IsAbs(args[i]) || args[i] == "" {
		return args, 0
	}
	out := append([]string(nil), args...)
	out[i] = joinRel(dir, args[i])
	return out, i
}

// joinRel is CPython's _Py_abspath of the relative path p in the folder
// dir: dir, a slash unless dir ends with one, and p as it is.
func joinRel(dir, p string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + p
	}
	return dir + "/" + p
}

// missingScript is what CPython prints (then it exits with status 2) for
// `PROG SCRIPT ...`, SCRIPT at the absolute path abs, when fsys has no
// file there: Linux's errno and text, where CPython for WASI would print
// WASI's numbers ([Errno 44]). ok is false when the file may be there (or
// is not fsys's to say: the engine's mounts, the image's own /usr), and
// CPython is to start and say.
func missingScript(fsys experimentalsys.FS, prog, abs string) (msg string, ok bool) {
	if fsys == nil || !path.IsAbs(abs) || strings.HasPrefix(abs, "/usr/") {
		return "", false
	}
	var errno int
	var text string
	switch _, e := fsys.Stat(strings.TrimPrefix(path.Clean(abs), "/")); e {
	case experimentalsys.ENOENT:
		errno, text = 2, "No such file or directory"
	case experimentalsys.ENOTDIR:
		errno, text = 20, "Not a directory"
	default:
		return "", false
	}
	return fmt.Sprintf("%s: can't open file %s: [Errno %d] %s\n", prog, pyrepr.Str(abs), errno, text), true
}
