package e2b_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/e2b"
	"github.com/agentenkit/agentenkit/sandbox"
)

// fakeE2B is a hand-written E2B for what the test server never does: it
// answers Process/Start with whatever bytes a test scripts.
type fakeE2B struct {
	*httptest.Server
	start func(w http.ResponseWriter, r *http.Request)

	mu       sync.Mutex
	signals  []string
	sweeps   []string
	commands []string
}

const fakeID = "fake0001"

func envelope(flags byte, msg string) []byte {
	b := make([]byte, 5+len(msg))
	b[0] = flags
	binary.BigEndian.PutUint32(b[1:], uint32(len(msg)))
	copy(b[5:], msg)
	return b
}

func newFake(t *testing.T, start func(w http.ResponseWriter, r *http.Request)) (*fakeE2B, *e2b.Sandbox) {
	f := &fakeE2B{start: start}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	p, err := e2b.New("k", e2b.Options{APIURL: f.URL, SandboxURL: f.URL})
	require.NoError(t, err)
	sb, err := p.Connect(ctxT(t), fakeID)
	require.NoError(t, err)
	return f, sb.(*e2b.Sandbox)
}

func (f *fakeE2B) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	switch r.URL.Path {
	case "/sandboxes/" + fakeID:
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"sandboxID":"`+fakeID+`","templateID":"base","clientID":"x","envdVersion":"0.6.13","envdAccessToken":"tok","state":"running","startedAt":"2026-01-01T00:00:00Z","endAt":"2099-01-01T00:00:00Z"}`)
	case "/filesystem.Filesystem/Stat":
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"entry":{"name":"user","type":"FILE_TYPE_DIRECTORY","path":"/home/user"}}`)
	case "/process.Process/SendSignal":
		f.mu.Lock()
		f.signals = append(f.signals, string(raw))
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{}`)
	case "/process.Process/Start":
		var req struct {
			Process struct {
				Args []string `json:"args"`
			} `json:"process"`
		}
		if len(raw) > 5 {
			_ = json.Unmarshal(raw[5:], &req)
		}
		if a := req.Process.Args; len(a) == 4 && a[0] == "-c" && a[2] == "sweep" {
			f.mu.Lock()
			f.sweeps = append(f.sweeps, a[3])
			f.mu.Unlock()
			w.Header().Set("Content-Type", "application/connect+json")
			_, _ = w.Write(envelope(0, `{"event":{"start":{"pid":90}}}`))
			_, _ = w.Write(envelope(0, `{"event":{"end":{"exited":true,"status":"exit status 0"}}}`))
			_, _ = w.Write(envelope(2, `{}`))
			return
		}
		if a := req.Process.Args; len(a) == 3 {
			f.mu.Lock()
			f.commands = append(f.commands, a[2])
			f.mu.Unlock()
		}
		f.start(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeE2B) seen() (signals, sweeps []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.signals...), append([]string(nil), f.sweeps...)
}

func TestClientSideTimeout(t *testing.T) {
	// envd that ignores Connect-Timeout-Ms: the adapter must end the command.
	f, sb := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/connect+json")
		_, _ = w.Write(envelope(0, `{"event":{"start":{"pid":77}}}`))
		_, _ = w.Write(envelope(0, `{"event":{"data":{"stdout":"`+b64("before\n")+`"}}}`))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	start := time.Now()
	res, err := sb.RunCommand(ctxT(t), "echo before; sleep 100", sandbox.RunCommandOptions{Timeout: 300 * time.Millisecond})
	took := time.Since(start)
	require.NoError(t, err)
	assert.True(t, res.TimedOut)
	assert.Equal(t, sandbox.TimeoutExitCode, res.ExitCode)
	assert.Equal(t, "before\n", res.Stdout, "the output so far")
	assert.GreaterOrEqual(t, took, 300*time.Millisecond)
	assert.Less(t, took, 6*time.Second, "limit + a small grace")
	signals, sweeps := f.seen()
	require.Len(t, signals, 1)
	assert.JSONEq(t, `{"process":{"pid":77},"signal":"SIGNAL_SIGKILL"}`, signals[0])
	assert.Len(t, sweeps, 1, "what the command left is swept")
}

func TestServerDeadlineIsTimeout(t *testing.T) {
	f, sb := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "1000", r.Header.Get("Connect-Timeout-Ms"))
		w.Header().Set("Content-Type", "application/connect+json")
		_, _ = w.Write(envelope(0, `{"event":{"start":{"pid":5}}}`))
		_, _ = w.Write(envelope(0, `{"event":{"data":{"stderr":"`+b64("partial")+`"}}}`))
		_, _ = w.Write(envelope(2, `{"error":{"code":"deadline_exceeded","message":"context deadline exceeded"}}`))
	})
	res, err := sb.RunCommand(ctxT(t), "sleep 5", sandbox.RunCommandOptions{Timeout: time.Second})
	require.NoError(t, err)
	assert.True(t, res.TimedOut)
	assert.Equal(t, 124, res.ExitCode)
	assert.Equal(t, "partial", res.Stderr)
	_, sweeps := f.seen()
	assert.Len(t, sweeps, 1)
}

func TestByteByByteStream(t *testing.T) {
	body := bytes.Join([][]byte{
		envelope(0, `{"event":{"start":{"pid":9}}}`),
		envelope(0, `{"event":{"keepalive":{}}}`),
		envelope(0, `{"event":{"data":{"stdout":"`+b64("one\n")+`"}}}`),
		envelope(0, `{"event":{"keepalive":{}}}`),
		envelope(0, `{"event":{"data":{"stdout":"`+b64("two\n")+`"}}}`),
		envelope(0, `{"event":{"end":{"exited":true,"status":"exit status 0"}}}`),
		envelope(2, `{}`),
	}, nil)
	_, sb := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/connect+json")
		for i := range body {
			_, _ = w.Write(body[i : i+1])
			w.(http.Flusher).Flush()
		}
	})
	res, err := sb.RunCommand(ctxT(t), "echo one; echo two", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "one\ntwo\n", res.Stdout)
	assert.Equal(t, 0, res.ExitCode, "no exitCode key is 0")
	assert.False(t, res.TimedOut)
}

func TestStreamErrors(t *testing.T) {
	for _, c := range []struct {
		name    string
		body    []byte
		status  int
		want    string
		code    string
		apiPath string
	}{
		{"error end-of-stream", append(envelope(0, `{"event":{"start":{"pid":1}}}`), envelope(2, `{"error":{"code":"internal","message":"boom"}}`)...), 200, "boom", "internal", "/process.Process/Start"},
		{"error before start", envelope(2, `{"error":{"code":"invalid_argument","message":"cwd '/nope' does not exist"}}`), 200, "does not exist", "invalid_argument", "/process.Process/Start"},
		{"cut without end-of-stream", envelope(0, `{"event":{"start":{"pid":1}}}`), 200, "end-of-stream", "", ""},
		{"end-of-stream without end event", append(envelope(0, `{"event":{"start":{"pid":1}}}`), envelope(2, `{}`)...), 200, "end event", "", ""},
		{"no start event", append(envelope(0, `{"event":{"data":{"stdout":"eA=="}}}`), envelope(2, `{}`)...), 200, "start event", "", ""},
		{"unsupported media type", []byte(`{"code":"internal","message":"415"}`), 415, "415", "internal", "/process.Process/Start"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, sb := newFake(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/connect+json")
				w.WriteHeader(c.status)
				_, _ = w.Write(c.body)
			})
			_, err := sb.RunCommand(ctxT(t), "x", sandbox.RunCommandOptions{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.NotErrorIs(t, err, sandbox.ErrGone, "the sandbox is alive")
			if c.code != "" {
				var ae *e2b.APIError
				require.ErrorAs(t, err, &ae)
				assert.Equal(t, c.code, ae.Code)
				assert.Equal(t, c.apiPath, ae.Path)
				assert.Equal(t, fakeID, ae.SandboxID)
			}
		})
	}
}

func b64(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	_ = enc.Encode([]byte(s))
	return strings.Trim(strings.TrimSpace(b.String()), `"`)
}
