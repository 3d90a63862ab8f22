package bench

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/images"
)

// The peers' drivers and their pinned packages (package.json, and
// package-lock.json with every dependency's integrity), written into the
// peers folder before each run.
//
//go:embed peers/*.mjs peers/package.json peers/package-lock.json
var peerFiles embed.FS

// Peer is a sandbox of another project measured beside the adapters on the
// workloads it can run: an npm package driven in one node process by a
// driver of bench/peers, which reads its configuration (the workloads'
// commands, from this package) as JSON on stdin and prints a JSON line per
// measurement.
type Peer struct {
	// Name is its column in the table and chart, and its npm package.
	Name string
	// Driver is the driver's file in bench/peers.
	Driver string
	// Config is what the driver reads on stdin.
	Config any
	// Workloads maps the driver's keys to the workloads they measure.
	Workloads map[string]string
}

// Peers lists the peers: just-bash, a bash interpreter in TypeScript, on
// the shell workloads; Pyodide, CPython compiled to wasm with Emscripten,
// on the python ones.
func Peers() []Peer {
	return []Peer{
		{
			Name:   "just-bash",
			Driver: "justbash.mjs",
			Config: justBashConfig{
				TimeoutMs:     (15 * time.Minute).Milliseconds(),
				Echo:          peerCommand{Cmd: "echo hi", Want: "hi\n"},
				Pipeline:      peerCommand{Cmd: pipeline, Want: pipelineOut},
				ShellLoop:     peerCommand{Cmd: shellLoop, Want: "100000\n"},
				FirstCommands: firstCommands,
				Concurrent:    peerCommand{Cmd: concurrentEcho, Want: "42\n", N: DefaultConcurrent},
			},
			Workloads: map[string]string{
				"create-echo": CreateEchoName,
				"first-seq":   FirstSeqName,
				"first-conc":  FirstConcName,
				"warm-echo":   WarmEchoName,
				"pipeline":    PipelineName,
				"shell-loop":  ShellLoopName,
				"concurrent":  ConcurrentName,
			},
		},
		{
			Name:   "pyodide",
			Driver: "pyodide.mjs",
			Config: pyodideConfig{
				FirstPythonRounds: pyodideLoads,
				Print:             peerCode{Code: "print(1)", Want: "1\n"},
				CPU:               peerCode{Code: pythonCPU},
			},
			Workloads: map[string]string{
				"create-python": FirstPythonName,
				"python-warm":   PythonName,
				"python-cpu":    PythonCPUName,
			},
		},
	}
}

// peerCommand is a shell command a driver runs and what it must print
// (blanks around aside), N times at once where N is set.
type peerCommand struct {
	Cmd  string `json:"cmd"`
	Want string `json:"want"`
	N    int    `json:"n,omitempty"`
}

// peerCode is Python code a driver runs and what it must print, if set.
type peerCode struct {
	Code string `json:"code"`
	Want string `json:"want,omitempty"`
}

// justBashConfig is what justbash.mjs reads.
type justBashConfig struct {
	TimeoutMs     int64       `json:"timeoutMs"`
	Echo          peerCommand `json:"echo"`
	Pipeline      peerCommand `json:"pipeline"`
	ShellLoop     peerCommand `json:"shellLoop"`
	FirstCommands int         `json:"firstCommands"`
	Concurrent    peerCommand `json:"concurrent"`
}

// pyodideConfig is what pyodide.mjs reads.
type pyodideConfig struct {
	FirstPythonRounds int      `json:"firstPythonRounds"`
	Print             peerCode `json:"print"`
	CPU               peerCode `json:"cpu"`
}

// pyodideLoads is how many new interpreters Pyodide's create + first
// python row loads, not firstPythonRounds: each load costs about 5 s of CPU
// (5.7 s at load 30 on 2 cores, where 10 took 10 minutes of wall time).
const pyodideLoads = 3

// PeersEnvDir names the folder the peers are fetched into when set; else
// it is the images folder's peers/ (images.DefaultDir).
const PeersEnvDir = "AGENTENKIT_PEERS"

// PeersDir is the folder make bench-peers fetches the peers into and make
// bench runs them from.
func PeersDir() string {
	if d := os.Getenv(PeersEnvDir); d != "" {
		return d
	}
	return filepath.Join(images.DefaultDir(), "peers")
}

// ErrPeerMissing: a peer cannot run here (no node, or its package not
// fetched at the pinned version); its workloads are not measured.
var ErrPeerMissing = errors.New("peer not available")

// FetchPeers installs the peers' pinned packages into dir with `npm ci`
// (every package checked against the integrity of bench/peers'
// package-lock.json, no install scripts run).
func FetchPeers(ctx context.Context, dir string, log io.Writer) error {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("bench: fetching the peers needs npm (install Node.js and npm): %w", err)
	}
	if err := writePeerFiles(dir); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, log, log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("bench: npm ci in %s: %w", dir, err)
	}
	for _, p := range Peers() {
		if err := p.check(dir); err != nil {
			return err
		}
	}
	return nil
}

// writePeerFiles writes the drivers and the package files into dir (made
// if missing), replacing what an earlier run wrote.
func writePeerFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("bench: peers folder: %w", err)
	}
	entries, err := peerFiles.ReadDir("peers")
	if err != nil {
		return err
	}
	for _, e := range entries {
		b, err := peerFiles.ReadFile("peers/" + e.Name())
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			return fmt.Errorf("bench: peers folder: %w", err)
		}
	}
	return nil
}

// pinned is the version of the npm package name that bench/peers'
// package.json pins.
func pinned(name string) (string, error) {
	b, err := peerFiles.ReadFile("peers/package.json")
	if err != nil {
		return "", err
	}
	var pkg struct{ Dependencies map[string]string }
	if err := json.Unmarshal(b, &pkg); err != nil {
		return "", fmt.Errorf("bench: peers/package.json: %w", err)
	}
	v, ok := pkg.Dependencies[name]
	if !ok {
		return "", fmt.Errorf("bench: peers/package.json pins no %s", name)
	}
	return v, nil
}

// check says whether p's package is in dir at its pinned version, and node
// on PATH; the error wraps ErrPeerMissing.
func (p Peer) check(dir string) error {
	want, err := pinned(p.Name)
	if err != nil {
		return err
	}
	if _, err := exec.LookPath("node"); err != nil {
		return fmt.Errorf("%w: %s needs node on PATH", ErrPeerMissing, p.Name)
	}
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", p.Name, "package.json"))
	if err != nil {
		return fmt.Errorf("%w: %s not fetched (run make bench-peers)", ErrPeerMissing, p.Name)
	}
	var pkg struct{ Version string }
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Version != want {
		return fmt.Errorf("%w: %s in %s is %q, not the pinned %s (run make bench-peers)", ErrPeerMissing, p.Name, dir, pkg.Version, want)
	}
	return nil
}

// MeasurePeers runs every peer fetched into dir, log getting a line per
// measurement. A peer that is not there has a Result per workload with the
// reason (ErrPeerMissing).
func MeasurePeers(ctx context.Context, log io.Writer, dir string) []Result {
	return measurePeers(ctx, log, dir, Filter{})
}

// measurePeers is MeasurePeers of the peers and workloads f picks.
func measurePeers(ctx context.Context, log io.Writer, dir string, f Filter) []Result {
	var out []Result
	for _, p := range Peers() {
		if !f.column(p.Name) {
			continue
		}
		picked := map[string]string{}
		for k, w := range p.Workloads {
			if f.workload(w) {
				picked[k] = w
			}
		}
		if p.Workloads = picked; len(p.Workloads) == 0 {
			continue
		}
		var rs []Result
		if err := p.check(dir); err != nil {
			rs = p.failed(err)
		} else if err := writePeerFiles(dir); err != nil {
			rs = p.failed(err)
		} else {
			rs = p.run(ctx, dir)
		}
		for _, r := range rs {
			logResult(log, r)
		}
		out = append(out, rs...)
	}
	return out
}

// peerTimeout bounds one peer's node process.
const peerTimeout = 30 * time.Minute

// run runs p's driver in dir, its results in the order of Workloads.
func (p Peer) run(ctx context.Context, dir string) []Result {
	config, err := p.config()
	if err != nil {
		return p.failed(err)
	}
	ctx, cancel := context.WithTimeout(ctx, peerTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "--expose-gc", p.Driver)
	cmd.Dir, cmd.Stdin = dir, bytes.NewReader(config)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if runErr != nil {
		runErr = fmt.Errorf("node %s: %w: %s", p.Driver, runErr, lastLines(stderr.String(), 5))
	}
	return p.parse(stdout.Bytes(), runErr)
}

// config is p.Config as JSON, with "only": the keys of p.Workloads (the
// driver measures only those).
func (p Peer) config() ([]byte, error) {
	b, err := json.Marshal(p.Config)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	m["only"] = slices.Sorted(maps.Keys(p.Workloads))
	return json.Marshal(m)
}

// peerLine is one line a driver prints.
type peerLine struct {
	Key   string  `json:"key"`
	Ns    float64 `json:"ns"`
	Note  string  `json:"note"`
	RSS   uint64  `json:"rss"`
	Error string  `json:"error"`
}

// parse makes p's results of what its driver printed: one per workload of
// p, in the order of Workloads(); a workload it printed nothing for has
// runErr (or a missing-line error) as its Err. A line that is not JSON, or
// names no workload of p, is an error of every workload not measured.
func (p Peer) parse(stdout []byte, runErr error) []Result {
	got := map[string]Result{}
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l peerLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			runErr = errors.Join(runErr, fmt.Errorf("%s printed %q: %w", p.Driver, sc.Text(), err))
			continue
		}
		name, ok := p.Workloads[l.Key]
		if !ok {
			runErr = errors.Join(runErr, fmt.Errorf("%s printed the unknown key %q", p.Driver, l.Key))
			continue
		}
		r := Result{Workload: name, Adapter: p.Name, PerOp: time.Duration(l.Ns), Note: l.Note}
		switch {
		case l.Error != "":
			r = Result{Workload: name, Adapter: p.Name, Err: errors.New(l.Error)}
		case l.Ns <= 0:
			r.Err = fmt.Errorf("%s: %s: no time", p.Driver, l.Key)
		case name == ConcurrentName:
			r.Sandboxes, r.Command, r.PeakRSS, r.Memory, r.Note = DefaultConcurrent, "echo", l.RSS, InProcess, ""
		}
		got[name] = r
	}
	var out []Result
	for _, w := range Workloads() {
		if !slices.Contains(slices.Collect(maps.Values(p.Workloads)), w.Name) {
			continue
		}
		r, ok := got[w.Name]
		if !ok {
			err := runErr
			if err == nil {
				err = fmt.Errorf("%s printed no line for it", p.Driver)
			}
			r = Result{Workload: w.Name, Adapter: p.Name, Err: err}
		}
		out = append(out, r)
	}
	return out
}

// failed is a Result per workload of p, each with err.
func (p Peer) failed(err error) []Result {
	var out []Result
	for _, w := range Workloads() {
		if slices.Contains(slices.Collect(maps.Values(p.Workloads)), w.Name) {
			out = append(out, Result{Workload: w.Name, Adapter: p.Name, Err: err})
		}
	}
	return out
}

// lastLines is the last n lines of s, on one line.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " / ")
}
