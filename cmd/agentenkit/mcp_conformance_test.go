package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentenkit/agentenkit/internal/testenv"
)

// The official MCP conformance suite, at the version .ci/run installs: the
// npm package @modelcontextprotocol/conformance in
// <conformanceRoot>/<conformanceVersion>, run by a node of at least
// conformanceNodeMajor (.ci/run installs one from npm where the system's is
// older) from $AGENTENKIT_NODE, else <nodeRoot>/*/node_modules/.bin/node,
// else node on PATH.
const (
	conformanceVersion   = "0.1.16"
	conformanceRoot      = "/tmp/agentenkit-mcp-conformance"
	conformanceNodeMajor = 22
	nodeRoot             = "/tmp/agentenkit-node"
)

// conformanceSuite returns the node to run the suite with and the suite's
// entry point, or ends the test: a skip saying what to install, or a
// failure where AGENTENKIT_REQUIRE names mcp-conformance.
func conformanceSuite(t *testing.T) (node, suite string) {
	t.Helper()
	dir := filepath.Join(conformanceRoot, conformanceVersion, "node_modules", "@modelcontextprotocol", "conformance")
	raw, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		testenv.Missing(t, "mcp-conformance", fmt.Sprintf("the MCP conformance suite is not installed: npm install --prefix %s/%s @modelcontextprotocol/conformance@%s (as .ci/run does)", conformanceRoot, conformanceVersion, conformanceVersion))
	}
	var meta struct {
		Version string            `json:"version"`
		Bin     map[string]string `json:"bin"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil || meta.Version != conformanceVersion || meta.Bin["conformance"] == "" {
		t.Fatalf("%s/package.json: version %q, bin %v (err %v); want version %s with a conformance bin", dir, meta.Version, meta.Bin, err, conformanceVersion)
	}
	candidates := []string{os.Getenv("AGENTENKIT_NODE")}
	found, _ := filepath.Glob(filepath.Join(nodeRoot, "*", "node_modules", ".bin", "node"))
	slices.Reverse(found) // the newest version first, as far as names sort
	candidates = append(candidates, found...)
	if p, err := exec.LookPath("node"); err == nil {
		candidates = append(candidates, p)
	}
	var seen []string
	for _, c := range candidates {
		if c == "" {
			continue
		}
		out, err := exec.Command(c, "--version").Output()
		v := strings.TrimSpace(string(out))
		major, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(v, "v"), ".", 2)[0])
		if err == nil && major >= conformanceNodeMajor {
			return c, filepath.Join(dir, meta.Bin["conformance"])
		}
		seen = append(seen, fmt.Sprintf("%s (%s %v)", c, v, err))
	}
	testenv.Missing(t, "mcp-conformance", fmt.Sprintf("the MCP conformance suite needs node %d or newer; found %v: npm install --prefix %s/22 node@22 (as .ci/run does), or set AGENTENKIT_NODE", conformanceNodeMajor, seen, nodeRoot))
	return "", ""
}

// baseline is testdata/mcp-conformance-baseline.yml: the scenarios expected
// to fail, each with its reason.
func baseline(t *testing.T) (file string, expected map[string]string) {
	t.Helper()
	file, err := filepath.Abs(filepath.Join("testdata", "mcp-conformance-baseline.yml"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	expected = map[string]string{}
	entry := regexp.MustCompile(`^\s+-\s+([a-z0-9-]+)\s*(?:#\s*(.*))?$`)
	for line := range strings.Lines(string(raw)) {
		line = strings.TrimRight(line, "\r\n")
		m := entry.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if strings.TrimSpace(m[2]) == "" {
			t.Errorf("%s: %q has no reason (# why it is expected to fail)", file, m[1])
		}
		expected[m[1]] = m[2]
	}
	if len(expected) == 0 {
		t.Fatalf("%s lists no scenario", file)
	}
	return file, expected
}

// runConformance runs every server scenario of the suite (the pending ones
// too) against the MCP endpoint url and checks each scenario's outcome
// against the baseline: one not listed must pass, one listed must fail.
func runConformance(t *testing.T, node, suite, url string) {
	t.Helper()
	file, expected := baseline(t)
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, suite, "server", "--url", url, "--suite", "all", "--expected-failures", file, "-o", out)
	cmd.Dir = out
	log, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("the conformance suite did not finish in time:\n%s", log)
	}
	// The outcome of each scenario, from its checks: a FAILURE fails it, and
	// so does a WARNING, as the suite counts them against its baseline.
	dirName := regexp.MustCompile(`^server-(.+)-\d{4}-\d{2}-\d{2}T`)
	entries, _ := os.ReadDir(out)
	passed := map[string]bool{}
	why := map[string][]string{}
	for _, en := range entries {
		m := dirName.FindStringSubmatch(en.Name())
		if m == nil {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(out, en.Name(), "checks.json"))
		if err != nil {
			t.Fatalf("scenario %s: %v", m[1], err)
		}
		var checks []struct{ ID, Status, ErrorMessage string }
		if err := json.Unmarshal(raw, &checks); err != nil {
			t.Fatalf("scenario %s: checks.json: %v", m[1], err)
		}
		ok := true
		for _, c := range checks {
			if c.Status == "FAILURE" || c.Status == "WARNING" {
				ok = false
				why[m[1]] = append(why[m[1]], c.ID+": "+c.ErrorMessage)
			}
		}
		passed[m[1]] = ok
	}
	if len(passed) < 20 {
		t.Fatalf("the suite ran %d scenarios (exit %v):\n%s", len(passed), err, log)
	}
	var names []string
	for name := range passed {
		names = append(names, name)
	}
	slices.Sort(names)
	n := 0
	for _, name := range names {
		reason, listed := expected[name]
		switch {
		case passed[name] && listed:
			t.Errorf("scenario %s passes now: remove it from %s (it was listed because: %s)", name, file, reason)
		case !passed[name] && !listed:
			t.Errorf("scenario %s fails: %s", name, strings.Join(why[name], "; "))
		case passed[name]:
			n++
		}
	}
	for name := range expected {
		if _, ran := passed[name]; !ran {
			t.Errorf("%s lists %s, which the suite %s does not have", file, name, conformanceVersion)
		}
	}
	t.Logf("%d scenarios pass, %d fail as the baseline expects", n, len(names)-n)
	if err != nil && !t.Failed() {
		t.Errorf("the suite exited with %v although every scenario is as the baseline says:\n%s", err, log)
	}
	if t.Failed() {
		t.Logf("the suite's output:\n%s", log)
	}
}

// TestMCPConformance runs the official MCP conformance suite against
// `agentenkit mcp --http` and, through a bridge from Streamable HTTP to
// stdio, against `agentenkit mcp` on stdio.
func TestMCPConformance(t *testing.T) {
	node, suite := conformanceSuite(t)
	t.Run("http", func(t *testing.T) {
		c := newCLI(t)
		url := startHTTPServer(t, c, "--provider", "memory")
		runConformance(t, node, suite, url)
	})
	t.Run("stdio", func(t *testing.T) {
		c := newCLI(t)
		b := &stdioBridge{t: t, start: func(ctx context.Context) *exec.Cmd {
			return c.command(ctx, "mcp", "--provider", "memory")
		}}
		srv := httptest.NewServer(b)
		t.Cleanup(func() { srv.Close(); b.closeAll() })
		runConformance(t, node, suite, srv.URL+mcpPath)
	})
}

// startHTTPServer starts `agentenkit mcp --http 127.0.0.1:0 args...` and
// returns its endpoint, from the line it prints on stderr.
func startHTTPServer(t *testing.T, c *cli, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := c.command(ctx, append([]string{"mcp", "--http", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Errorf("agentenkit mcp --http did not end within 20 s of an interrupt")
			cancel()
			<-done
		}
		cancel()
	})
	lines := bufio.NewScanner(stderr)
	prefix := "agentenkit mcp: serving MCP (Streamable HTTP) at "
	for lines.Scan() {
		t.Logf("server: %s", lines.Text())
		if url, ok := strings.CutPrefix(lines.Text(), prefix); ok {
			go func() {
				for lines.Scan() {
					t.Logf("server: %s", lines.Text())
				}
			}()
			return url
		}
	}
	t.Fatalf("agentenkit mcp --http ended without saying where it serves (%v)", lines.Err())
	return ""
}

// stdioBridge serves Streamable HTTP, each session a new `agentenkit mcp`
// on stdio, the session's JSON-RPC messages passed through unchanged both
// ways: the suite, which speaks HTTP only, tests the stdio server. What is
// HTTP's own (sessions, streams, the Host check) is the SDK's transport
// here, as it is in `agentenkit mcp --http`.
type stdioBridge struct {
	t     *testing.T
	start func(ctx context.Context) *exec.Cmd

	mu       sync.Mutex
	sessions map[string]*bridged
}

// bridged is one session: its HTTP side and its process.
type bridged struct {
	http   *mcp.StreamableServerTransport
	conn   mcp.Connection
	child  mcp.Connection
	cancel context.CancelFunc
}

func (b *stdioBridge) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path != mcpPath {
		http.NotFound(w, req)
		return
	}
	// DNS rebinding: a loopback connection that names another host.
	if local, ok := req.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && isLoopback(local.String()) && !isLoopback(req.Host) {
		http.Error(w, "Forbidden: invalid Host header "+strconv.Quote(req.Host), http.StatusForbidden)
		return
	}
	id := req.Header.Get("Mcp-Session-Id")
	b.mu.Lock()
	s := b.sessions[id]
	b.mu.Unlock()
	switch {
	case id != "" && s == nil:
		http.Error(w, "session not found", http.StatusNotFound)
	case id == "" && req.Method != http.MethodPost:
		http.Error(w, "Bad Request: "+req.Method+" requires an Mcp-Session-Id header", http.StatusBadRequest)
	case req.Method == http.MethodDelete:
		b.end(id)
		w.WriteHeader(http.StatusNoContent)
	case req.Method != http.MethodGet && req.Method != http.MethodPost:
		w.Header().Set("Allow", "GET, POST, DELETE")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	case s == nil:
		s, err := b.open()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		s.http.ServeHTTP(w, req)
	default:
		s.http.ServeHTTP(w, req)
	}
}

// open starts a session: a process, and the copying both ways.
func (b *stdioBridge) open() (*bridged, error) {
	ctx, cancel := context.WithCancel(context.Background())
	s := &bridged{http: &mcp.StreamableServerTransport{SessionID: rand.Text()}, cancel: cancel}
	var err error
	if s.conn, err = s.http.Connect(ctx); err != nil {
		cancel()
		return nil, err
	}
	if s.child, err = (&mcp.CommandTransport{Command: b.start(ctx)}).Connect(ctx); err != nil {
		cancel()
		return nil, err
	}
	copyMessages := func(from, to mcp.Connection) {
		for {
			msg, err := from.Read(ctx)
			if err != nil {
				b.end(s.http.SessionID)
				return
			}
			if err := to.Write(ctx, msg); err != nil && ctx.Err() == nil {
				b.t.Logf("bridge: %v", err)
			}
		}
	}
	go copyMessages(s.conn, s.child)
	go copyMessages(s.child, s.conn)
	b.mu.Lock()
	if b.sessions == nil {
		b.sessions = map[string]*bridged{}
	}
	b.sessions[s.http.SessionID] = s
	b.mu.Unlock()
	return s, nil
}

// end ends a session and its process.
func (b *stdioBridge) end(id string) {
	b.mu.Lock()
	s := b.sessions[id]
	delete(b.sessions, id)
	b.mu.Unlock()
	if s != nil {
		_ = s.child.Close()
		_ = s.conn.Close()
		s.cancel()
	}
}

func (b *stdioBridge) closeAll() {
	b.mu.Lock()
	var ids []string
	for id := range b.sessions {
		ids = append(ids, id)
	}
	b.mu.Unlock()
	for _, id := range ids {
		b.end(id)
	}
}

// isLoopback reports whether addr (host or host:port) is a loopback name or
// address.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	host = strings.Trim(host, "[]")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
