package engine

import (
	"context"
	_ "embed"
	"encoding/binary"
	"errors"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// A prestarted Python is a Warm instance of the python image started
// before its command is known: CPython initialises (about 100 ms of a
// `python3 -c 'print(1)'`) while the sandbox is idle, then waits on stdin
// for one request and runs it in the same interpreter, once
// (python/prestart.py). It serves only what it can run exactly as a new
// CPython would (Serves): `python3 -c CODE ARGS`, `python3 -m MODULE ARGS`
// and `python3 SCRIPT ARGS` with no other option, under the program name it
// was started with and with the same environment where CPython reads it at
// start (PYTHON*, HOME, LANG, LANGUAGE, LC_*, TZ); the rest of the
// environment, the folder and argv are set before the command runs. It
// never serves PYTHONHASHSEED=random: a CPython asked for so draws its own
// str hash seed at its start, which a prestarted one did before.

//go:embed python/prestart.py
var prestartProgram string

// ErrNotPython: Prestart on an image that is not Python.
var ErrNotPython = errors.New("engine: not a python image")

type prestart struct {
	argv0  string
	env    map[string]string // with Python's defaults, as started
	stdlib string            // PYTHONPATH's last entry, the stdlib, or ""
}

// Prestart starts a prestarted Python of img on spec's files, as argv0
// (python3 when empty) with env, and waits until CPython is ready for its
// request. Run it with Warm.Run, once, after Serves said yes.
func (img *Image) Prestart(ctx context.Context, spec WarmSpec, argv0 string, env map[string]string) (*Warm, error) {
	if !img.python {
		return nil, ErrNotPython
	}
	w := img.newWarm(ctx, spec, nil)
	w.python = img.prestartFor(argv0, env)
	start := maps.Clone(w.python.env)
	start["PWD"] = "/"
	if canMapData && !img.e.opts.NoClones {
		if t, err := img.template(ctx, w.python); err == nil && t.serves(spec.FS) {
			cfg := w.config([]string{w.python.argv0, "-c", prestartProgram, "agentenkit-template"}, start, img.mounts(spec.FS, img.site, img.stdlib))
			return w.startClone(ctx, cfg, t)
		}
	}
	return w.start(ctx, w.config([]string{w.python.argv0, "-c", prestartProgram}, start, img.mounts(spec.FS, img.site, img.stdlib)))
}

// TemplateReady reports whether a python3 command run as argv0 (python3
// when empty) with env on fsys (nil: any files) would start from a clone of
// a template made already, as Run starts one, at about 2 ms: then a
// prestarted Python would save the command only that. False where clones
// are off.
func (img *Image) TemplateReady(argv0 string, env map[string]string, fsys experimentalsys.FS) bool {
	if !img.python || !canMapData || img.e.opts.NoClones {
		return false
	}
	t := img.readyTemplate(img.prestartFor(argv0, env))
	return t != nil && t.serves(fsys)
}

func (img *Image) prestartFor(argv0 string, env map[string]string) *prestart {
	if argv0 == "" {
		argv0 = "python3"
	}
	start := maps.Clone(env)
	if start == nil {
		start = map[string]string{}
	}
	delete(start, "PWD")
	pythonEnv(start, img.stdlibPath(img.stdlib))
	return &prestart{argv0: argv0, env: start, stdlib: img.stdlibPath(img.stdlib)}
}

// PrestartServes reports whether a prestarted Python that Prestart would
// start as argv0 with startEnv would serve args with env (see Serves),
// before there is one.
func (img *Image) PrestartServes(argv0 string, startEnv map[string]string, args []string, env map[string]string) bool {
	if !img.python {
		return false
	}
	_, ok := img.prestartFor(argv0, startEnv).request(args, env, "/")
	return ok
}

// Serves reports whether w, a prestarted Python not yet used, runs args
// with env exactly as a new CPython would.
func (w *Warm) Serves(args []string, env map[string]string) bool {
	if w.python == nil || !w.Reusable() {
		return false
	}
	_, ok := w.python.request(args, env, "/")
	return ok
}

// startupKey reports whether CPython reads the variable k when it starts.
func startupKey(k string) bool {
	switch k {
	case "HOME", "LANG", "LANGUAGE", "TZ":
		return true
	}
	return strings.HasPrefix(k, "PYTHON") || strings.HasPrefix(k, "LC_")
}

// request is the prestart program's request for args (argv[0] first) with
// env in dir, or false when it would not run them as a new CPython would.
func (ps *prestart) request(args []string, env map[string]string, dir string) ([]byte, bool) {
	if len(args) < 2 || args[0] != ps.argv0 {
		return nil, false
	}
	env = maps.Clone(env)
	if env == nil {
		env = map[string]string{}
	}
	pythonEnv(env, ps.stdlib)
	if env["PYTHONHASHSEED"] == "random" || ps.env["PYTHONHASHSEED"] == "random" {
		return nil, false // its own str hash seed, drawn at its start
	}
	for k := range env {
		if startupKey(k) && env[k] != ps.env[k] {
			return nil, false
		}
	}
	for k := range ps.env {
		if _, ok := env[k]; startupKey(k) && !ok {
			return nil, false
		}
	}
	var kind, target string
	var argv []string
	switch a := args[1]; {
	case a == "-c" && len(args) >= 3:
		kind, target, argv = "c", args[2], append([]string{"-c"}, args[3:]...)
	case a == "-m" && len(args) >= 3:
		kind, target, argv = "m", args[2], append([]string{"-m"}, args[3:]...)
	case a != "" && a != "-" && !strings.HasPrefix(a, "-"):
		target = a
		if !path.IsAbs(target) {
			target = joinRel(dir, target) // as a new CPython's __file__
		}
		kind, argv = "f", args[1:]
	default:
		return nil, false
	}
	fields := []string{kind, args[0], dir, target, strconv.Itoa(len(argv))}
	fields = append(fields, argv...)
	fields = append(fields, strings.Join(args, "\x01"))
	for _, k := range slices.Sorted(maps.Keys(env)) {
		fields = append(fields, k+"="+env[k])
	}
	payload := strings.Join(fields, "\x00")
	if strings.Count(payload, "\x00") != len(fields)-1 || strings.Count(strings.Join(args, ""), "\x01") > 0 {
		return nil, false // a NUL or \x01 of its own: not for this framing
	}
	raw := binary.LittleEndian.AppendUint64(nil, uint64(len(payload)))
	return append(raw, payload...), true
}
