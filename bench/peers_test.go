package bench

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// testPeer is a peer of three workloads.
func testPeer() Peer {
	return Peer{Name: "just-bash", Driver: "fake.mjs", Config: map[string]int{"n": 1}, Workloads: map[string]string{
		"echo": CreateEchoName, "loop": ShellLoopName, "concurrent": ConcurrentName,
	}}
}

func TestPeerParse(t *testing.T) {
	p := testPeer()
	for _, tc := range []struct {
		name   string
		stdout string
		runErr error
		want   []string // per workload, in Workloads' order: in "time note details" or "error: text"
	}{
		{
			name: "all measured",
			stdout: `{"key":"concurrent","ns":2000000000,"rss":104857600}` + "\n" +
				`{"key":"echo","ns":3500000,"note":"mean of 10"}` + "\n" +
				`{"key":"loop","ns":9000000000,"note":"CPU 8.00 s"}` + "\n",
			want: []string{"3.5 ms mean of 10", "9.00 s CPU 8.00 s", "2.00 s <br>echo, peak RSS 100 MiB"},
		},
		{
			name:   "a workload's error, one missing",
			stdout: `{"key":"echo","error":"too many iterations"}` + "\n" + `{"key":"loop","ns":5000}` + "\n",
			want:   []string{"error: too many iterations", "5 µs ", "error: fake.mjs printed no line for it"},
		},
		{
			name:   "the driver failed",
			stdout: `{"key":"echo","ns":1000}` + "\n",
			runErr: errors.New("node fake.mjs: exit status 1: out of memory"),
			want:   []string{"1 µs ", "error: node fake.mjs: exit status 1: out of memory", "error: node fake.mjs: exit status 1: out of memory"},
		},
		{
			name:   "a bad line and an unknown key",
			stdout: "Warning: something\n" + `{"key":"nope","ns":1}` + "\n" + `{"key":"loop","ns":0}` + "\n",
			want:   []string{"error: fake.mjs printed \"Warning: something\"", "error: fake.mjs: loop: no time", "fake.mjs printed the unknown key \"nope\""},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := p.parse([]byte(tc.stdout), tc.runErr)
			var got []string
			for _, r := range rs {
				if r.Adapter != "just-bash" {
					t.Errorf("%s: adapter %q", r.Workload, r.Adapter)
				}
				if r.Err != nil {
					got = append(got, "error: "+r.Err.Error())
					continue
				}
				s := round(r.PerOp) + " " + r.Note
				if r.Sandboxes > 0 {
					s += details(r)
				}
				got = append(got, s)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			for i := range got {
				if !strings.Contains(got[i], tc.want[i]) {
					t.Errorf("result %d (%s): got %q, want it to hold %q", i, rs[i].Workload, got[i], tc.want[i])
				}
			}
			if rs[0].Workload != CreateEchoName || rs[1].Workload != ShellLoopName || rs[2].Workload != ConcurrentName {
				t.Errorf("order: %s, %s, %s", rs[0].Workload, rs[1].Workload, rs[2].Workload)
			}
		})
	}
}

func TestPeerConfigOnly(t *testing.T) {
	b, err := testPeer().config()
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		N    int
		Only []string
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.N != 1 || !slices.Equal(got.Only, []string{"concurrent", "echo", "loop"}) {
		t.Errorf("config %s", b)
	}
}

// TestPeersConfigs: every peer's driver is embedded, every key maps to a
// workload, and the drivers get the adapters' very commands.
func TestPeersConfigs(t *testing.T) {
	names := map[string]bool{}
	for _, w := range Workloads() {
		names[w.Name] = true
	}
	for _, p := range Peers() {
		if _, err := peerFiles.ReadFile("peers/" + p.Driver); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
		if _, err := pinned(p.Name); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
		for k, w := range p.Workloads {
			if !names[w] {
				t.Errorf("%s: key %s names no workload: %q", p.Name, k, w)
			}
		}
		b, err := p.config()
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{pipeline, shellLoop, pythonCPU} {
			j, _ := json.Marshal(s)
			if strings.Contains(string(b), string(j)) {
				delete(names, s)
			}
		}
	}
	for _, s := range []string{pipeline, shellLoop, pythonCPU} {
		if names[s] {
			t.Errorf("no peer runs %q", s)
		}
	}
}

func TestPeerCheck(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node here:", err)
	}
	p := Peers()[0]
	want, err := pinned(p.Name)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := p.check(dir); !errors.Is(err, ErrPeerMissing) || !strings.Contains(err.Error(), "make bench-peers") {
		t.Errorf("empty folder: %v", err)
	}
	pkg := filepath.Join(dir, "node_modules", p.Name)
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	for v, ok := range map[string]bool{"0.0.1": false, want: true} {
		if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"x","version":"`+v+`"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := p.check(dir); (err == nil) != ok || err != nil && !errors.Is(err, ErrPeerMissing) {
			t.Errorf("version %s: %v", v, err)
		}
	}
}

// TestPeerRun runs a driver of its own with node, through common.mjs: the
// configuration arrives on stdin, "only" leaves workloads out, a thrown
// error is the workload's.
func TestPeerRun(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node here:", err)
	}
	dir := t.TempDir()
	if err := writePeerFiles(dir); err != nil {
		t.Fatal(err)
	}
	driver := `import * as m from "./common.mjs";
const cfg = m.config();
await m.run("echo", () => m.mean(async () => {}, 1e6, cfg.n));
await m.run("loop", () => { throw new Error("too slow"); });
await m.run("concurrent", () => ({ ns: 5, rss: 1 }));
`
	if err := os.WriteFile(filepath.Join(dir, "fake.mjs"), []byte(driver), 0o644); err != nil {
		t.Fatal(err)
	}
	p := testPeer()
	p.Config = map[string]int{"n": 3}
	delete(p.Workloads, "concurrent")
	rs := p.run(context.Background(), dir)
	if len(rs) != 2 {
		t.Fatalf("%d results: %+v", len(rs), rs)
	}
	if r := rs[0]; r.Err != nil || r.PerOp <= 0 || !strings.HasPrefix(r.Note, "mean of ") {
		t.Errorf("echo: %+v", r)
	}
	if r := rs[1]; r.Err == nil || r.Err.Error() != "too slow" {
		t.Errorf("loop: %+v", r)
	}

	if err := os.WriteFile(filepath.Join(dir, "fake.mjs"), []byte(`process.exit(3)`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, r := range p.run(context.Background(), dir) {
		if r.Err == nil || !strings.Contains(r.Err.Error(), "exit status 3") {
			t.Errorf("%s: %v", r.Workload, r.Err)
		}
	}
}

// TestMeasurePeersFilter: the filter picks peers and their workloads; a
// peer not fetched has its picked workloads, each with ErrPeerMissing.
func TestMeasurePeersFilter(t *testing.T) {
	var log strings.Builder
	rs := measurePeers(context.Background(), &log, t.TempDir(), Filter{Workloads: regexp.MustCompile("loop|pipeline")})
	var got []string
	for _, r := range rs {
		got = append(got, r.Adapter+": "+r.Workload)
		if !errors.Is(r.Err, ErrPeerMissing) {
			t.Errorf("%s %s: %v", r.Adapter, r.Workload, r.Err)
		}
	}
	if want := []string{"just-bash: " + PipelineName, "just-bash: " + ShellLoopName}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if !strings.Contains(log.String(), "not measured") {
		t.Errorf("log %q", log.String())
	}
	if rs := measurePeers(context.Background(), &log, t.TempDir(), Filter{Columns: regexp.MustCompile("^wasm$")}); len(rs) != 0 {
		t.Errorf("no peer picked, got %+v", rs)
	}
	if n := len(Peers()[0].Workloads); n != 7 {
		t.Errorf("Peers()'s just-bash has %d workloads after filtering", n)
	}
}
