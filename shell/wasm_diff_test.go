//go:build unix

package shell

// The differential corpora on busybox.wasm: TestCompatWasm and TestOilsWasm
// run the scripts of TestCompat and the cases of TestOils through the wasm
// adapter (this package compiled for GOOS=wasip1, in wazero, where pipeline
// stages, subshells and background jobs are goroutines of one instance and
// python3 is an instance of its own) and compare them with the host's bash
// exactly as TestCompat and TestOils compare the memory adapter. They also
// count how often busybox.wasm and the memory adapter agree, since both run
// the same interpreter: a case where they differ is the wasm build's own.
//
// Each case gets a new sandbox holding the case's fixture. The Oils
// helpers (argv.py, printenv.py, stdout_stderr.py) are the corpus's Python
// scripts, run by the sandbox's CPython as bash runs them with the host's.
// The tests skip when the images are not built (`make images`), and fail
// then under AGENTENKIT_REQUIRE=wasm-images.
//
// TestOilsWasm runs every tenth case unless AGENTENKIT_OILS_WASM=all: the
// whole corpus takes about four times as long as TestCompatWasm (which took
// 9 minutes on a loaded 2-core machine), most of it in CPython starts for
// the helpers.
//
//	go test ./shell -run TestCompatWasm -v
//	AGENTENKIT_OILS_WASM=all go test ./shell -run 'TestOilsWasm/case/var-sub' -v

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/sandbox"
)

// Floors of the identical rates on busybox.wasm (percent), ratcheted up
// as the shell improves: measured 391/393 (compat) and 115/147 (every
// tenth Oils case, 78.2%; 146 of them as on the memory adapter).
const (
	compatWasmFloor = 95.0
	oilsWasmFloor   = 75.0
)

// wasmShell runs scripts in new sandboxes of one wasm provider, a few at a
// time (each holds a shell instance, some a CPython).
type wasmShell struct {
	p   *wasm.Provider
	sem chan struct{}
}

// wasmFile is a file of a case's fixture; a path ending in a slash is a
// folder.
type wasmFile struct {
	path string // absolute
	data []byte
	mode os.FileMode
}

func lookWasmShell(t *testing.T) *wasmShell {
	t.Helper()
	p := wasm.New(wasm.Options{Kv: memkv.New(memkv.Options{})})
	if err := p.Warm(context.Background()); errors.Is(err, images.ErrMissing) {
		testenv.Missing(t, "wasm-images", "the wasm images are not fetched and built: run `make images` ("+err.Error()+")")
	} else if err != nil {
		t.Fatal(err)
	}
	return &wasmShell{p: p, sem: make(chan struct{}, 4)}
}

// run runs script in a new sandbox holding files, in dir with env added
// to the sandbox's environment, and destroys the sandbox.
func (w *wasmShell) run(files []wasmFile, dir string, env map[string]string, script string, timeout time.Duration) (sandbox.CommandResult, error) {
	w.sem <- struct{}{}
	defer func() { <-w.sem }()
	ctx := context.Background()
	sb, err := w.p.Create(ctx, sandbox.CreateSandboxOptions{})
	if err != nil {
		return sandbox.CommandResult{}, err
	}
	defer sb.Destroy(ctx)
	fsys := sb.FileSystem()
	byMode := map[os.FileMode][]string{}
	for _, f := range files {
		if strings.HasSuffix(f.path, "/") {
			err = fsys.Mkdir(ctx, f.path)
		} else {
			err = fsys.WriteFile(ctx, f.path, f.data)
		}
		if err != nil {
			return sandbox.CommandResult{}, fmt.Errorf("writing the fixture: %w", err)
		}
		q, err := syntax.Quote(strings.TrimSuffix(f.path, "/"), syntax.LangBash)
		if err != nil {
			return sandbox.CommandResult{}, err
		}
		byMode[f.mode] = append(byMode[f.mode], q)
	}
	var setup []string
	for _, m := range slices.Sorted(func(yield func(os.FileMode) bool) {
		for m := range byMode {
			if !yield(m) {
				return
			}
		}
	}) {
		setup = append(setup, fmt.Sprintf("chmod %o %s", m, strings.Join(byMode[m], " ")))
	}
	if len(setup) > 0 {
		res, err := sb.RunCommand(ctx, strings.Join(setup, " && "), sandbox.RunCommandOptions{})
		if err != nil || res.ExitCode != 0 {
			return res, fmt.Errorf("chmod of the fixture: %v %s", err, res.Stderr)
		}
	}
	return sb.RunCommand(ctx, script, sandbox.RunCommandOptions{Cwd: dir, Env: env, Timeout: timeout})
}

// compatWasmFiles is compatFixture under compatHome.
func compatWasmFiles() []wasmFile {
	var files []wasmFile
	for _, f := range compatFixture {
		p := path.Join(compatHome, f.path)
		if strings.HasSuffix(f.path, "/") {
			p += "/"
		}
		files = append(files, wasmFile{path: p, data: []byte(f.content), mode: f.mode})
	}
	return files
}

// runCompatWasm runs a compat script on busybox.wasm.
func runCompatWasm(w *wasmShell, script string) compatOutcome {
	res, err := w.run(compatWasmFiles(), compatHome,
		map[string]string{"HOME": compatHome, "PATH": "/usr/bin:/bin", "LC_ALL": "C"}, script, compatTimeout)
	if err != nil {
		return compatOutcome{code: -1, err: err}
	}
	o := compatOutcome{stdout: res.Stdout, stderr: res.Stderr, code: res.ExitCode}
	if res.TimedOut {
		o.code, o.timeout, o.err = -1, true, fmt.Errorf("timed out after %v", compatTimeout)
	}
	return o
}

func TestCompatWasm(t *testing.T) {
	bash := lookBash(t)
	w := lookWasmShell(t)
	scripts := loadCompatScripts(t)
	type result struct {
		compatResult
		memory compatOutcome
	}
	results := make([]*result, len(scripts))
	t.Run("script", func(t *testing.T) {
		for i, s := range scripts {
			t.Run(s.name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				if err := writeCompatFixtureOS(dir, false); err != nil {
					t.Fatal(err)
				}
				r := &result{compatResult: compatResult{name: s.name, bash: runCompatBash(bash, dir, s.text), ours: runCompatWasm(w, s.text)}, memory: runCompatOurs(s.text)}
				results[i] = r
				if !r.identical() {
					t.Log("\n" + r.report(s.text))
				}
			})
		}
	})
	var ran, same, agree int
	var differ, memDiffer []string
	for _, r := range results {
		if r == nil {
			continue
		}
		ran++
		if r.identical() {
			same++
		} else {
			differ = append(differ, fmt.Sprintf("%s: %s", r.name, r.reason()))
		}
		if r.ours.err == nil && r.memory.err == nil && r.ours.stdout == r.memory.stdout && r.ours.code == r.memory.code {
			agree++
		} else {
			memDiffer = append(memDiffer, r.name)
		}
	}
	if ran == 0 {
		t.Skip("compat: no script selected")
	}
	rate := 100 * float64(same) / float64(ran)
	summary := fmt.Sprintf("compat on busybox.wasm: %d/%d identical to bash (%.1f%%); %d/%d the same as the memory adapter\ndiffer from bash: %s\ndiffer from the memory adapter: %s",
		same, ran, rate, agree, ran, strings.Join(differ, "; "), strings.Join(memDiffer, " "))
	t.Log("\n" + summary)
	fmt.Println(summary)
	if ran > 100 && rate < compatWasmFloor {
		t.Errorf("compat on busybox.wasm: %.1f%% is below the floor %.1f%%", rate, compatWasmFloor)
	}
}

// oilsWasmFiles is the Oils fixture with the helpers in /sandbox/bin, as
// oilsBash.once makes it on the host.
func oilsWasmFiles(corpus string, fixture map[string][]byte) ([]wasmFile, error) {
	var files []wasmFile
	for _, d := range []string{"case", "tmp", "bin"} {
		files = append(files, wasmFile{path: path.Join(oilsRoot, d) + "/", mode: 0o755})
	}
	names := make([]string, 0, len(fixture))
	for n := range fixture {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		files = append(files, wasmFile{path: n, data: fixture[n], mode: 0o755})
	}
	for _, h := range []string{"argv.py", "printenv.py", "stdout_stderr.py"} {
		src, err := os.ReadFile(filepath.Join(corpus, "bin", h))
		if err != nil {
			return nil, err
		}
		src = []byte(strings.Replace(string(src), "#!/usr/bin/env python2", "#!/usr/bin/env python3", 1))
		files = append(files, wasmFile{path: path.Join(oilsRoot, "bin", h), data: src, mode: 0o755})
	}
	return files, nil
}

// runOilsWasm runs an Oils case on busybox.wasm.
func runOilsWasm(w *wasmShell, c oilsCase, files []wasmFile) oilsOutcome {
	res, err := w.run(files, oilsRoot+"/case", map[string]string{
		"PATH": oilsRoot + "/bin:/usr/bin:/bin", "HOME": oilsRoot + "/case", "TMP": oilsRoot + "/tmp",
		"SH": "bash", "REPO_ROOT": oilsRoot + "/repo", "LC_ALL": "C.UTF-8",
	}, c.script, oilsTimeout)
	if err != nil {
		return oilsOutcome{Code: -1, Err: err.Error()}
	}
	o := oilsOutcome{Stdout: res.Stdout, Stderr: res.Stderr, Code: res.ExitCode}
	if res.TimedOut {
		o.Code, o.Err = -1, "timed out after "+oilsTimeout.String()
	}
	return o
}

func TestOilsWasm(t *testing.T) {
	b := lookOilsBash(t)
	w := lookWasmShell(t)
	cases := loadOilsCases(t, b.corpus)
	fixture, err := oilsFixture(b.corpus)
	if err != nil {
		t.Fatal(err)
	}
	files, err := oilsWasmFiles(b.corpus, fixture)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		oilsResult
		memory oilsOutcome
	}
	stride := 10
	if os.Getenv("AGENTENKIT_OILS_WASM") == "all" {
		stride = 1
	}
	t.Logf("oils on busybox.wasm: every %d. case (AGENTENKIT_OILS_WASM=all runs every one)", stride)
	results := make([]*result, len(cases))
	t.Run("case", func(t *testing.T) {
		for i, c := range cases {
			if i%stride != 0 {
				continue
			}
			t.Run(c.id(), func(t *testing.T) {
				t.Parallel()
				r := &result{oilsResult: oilsResult{c: c, skip: oilsSkip(c)}}
				results[i] = r
				if r.skip != "" {
					t.Skip(r.skip)
				}
				r.bash, r.skip = b.run(c)
				if r.skip != "" {
					t.Skip(r.skip)
				}
				r.ours = runOilsWasm(w, c, files)
				r.memory = runOilsOurs(c, fixture)
				if !r.bash.same(r.ours) {
					t.Log("\n" + oilsReport(&r.oilsResult))
				}
			})
		}
	})
	type tally struct{ ran, same, agree int }
	perFile := map[string]*tally{}
	var total tally
	var memDiffer []string
	for _, r := range results {
		if r == nil || r.skip != "" {
			continue
		}
		tf := perFile[r.c.file]
		if tf == nil {
			tf = &tally{}
			perFile[r.c.file] = tf
		}
		tf.ran++
		total.ran++
		if r.bash.same(r.ours) {
			tf.same++
			total.same++
		}
		if r.memory.same(r.ours) {
			tf.agree++
			total.agree++
		} else {
			memDiffer = append(memDiffer, r.c.id())
		}
	}
	if total.ran == 0 {
		t.Skip("oils: no case selected")
	}
	pct := func(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }
	var sb strings.Builder
	fmt.Fprintf(&sb, "oils on busybox.wasm: %-32s %5s %5s %7s %7s\n", "file", "cases", "same", "same%", "=memory")
	for _, n := range slices.Sorted(func(yield func(string) bool) {
		for n := range perFile {
			if !yield(n) {
				return
			}
		}
	}) {
		tf := perFile[n]
		fmt.Fprintf(&sb, "oils on busybox.wasm: %-32s %5d %5d %6.1f%% %7d\n", n, tf.ran, tf.same, pct(tf.same, tf.ran), tf.agree)
	}
	rate := pct(total.same, total.ran)
	fmt.Fprintf(&sb, "oils on busybox.wasm (every %d. case): %d/%d identical to bash %s (%.1f%%); %d/%d the same as the memory adapter\ndiffer from the memory adapter: %s",
		stride, total.same, total.ran, b.version, rate, total.agree, total.ran, strings.Join(memDiffer, " "))
	t.Log("\n" + sb.String())
	fmt.Println(sb.String())
	if total.ran >= 100 && rate < oilsWasmFloor {
		t.Errorf("oils on busybox.wasm: %.1f%% is below the floor %.1f%%", rate, oilsWasmFloor)
	}
}
