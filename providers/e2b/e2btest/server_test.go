package e2btest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/e2b/e2btest"
	"github.com/agentenkit/agentenkit/providers/e2b/internal/connectrpc"
	localsandbox "github.com/agentenkit/agentenkit/providers/local"
)

const key = "e2b_00ff"

// env is a test server with one sandbox, spoken to with raw HTTP.
type env struct {
	t     *testing.T
	srv   *e2btest.Server
	id    string
	token string
}

func newServer(t *testing.T) *e2btest.Server {
	back := localsandbox.New(localsandbox.Options{Root: t.TempDir()})
	require.NoError(t, back.Err())
	srv := e2btest.New(e2btest.Options{Backend: back, APIKey: key})
	t.Cleanup(srv.Close)
	return srv
}

func setup(t *testing.T) *env {
	e := &env{t: t, srv: newServer(t)}
	status, b := e.api(http.MethodPost, "/sandboxes", `{"templateID":"base","timeout":60,"secure":true,"metadata":{"k":"v"}}`, key)
	require.Equal(t, http.StatusCreated, status, "%s", b)
	var sb map[string]any
	require.NoError(t, json.Unmarshal(b, &sb))
	e.id, _ = sb["sandboxID"].(string)
	e.token, _ = sb["envdAccessToken"].(string)
	assert.Regexp(t, `^[a-z0-9]{20}$`, e.id)
	assert.NotEmpty(t, e.token)
	assert.Equal(t, "6532622b", sb["clientID"])
	assert.Equal(t, "base", sb["templateID"])
	assert.NotEmpty(t, sb["envdVersion"])
	assert.NotContains(t, sb, "domain", "no Domain: left out, as on E2B's cloud")
	return e
}

func do(t *testing.T, req *http.Request) (int, []byte, http.Header) {
	t.Helper()
	resp, err := http.DefaultTransport.RoundTrip(req) // no transparent gzip
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, b, resp.Header
}

func (e *env) api(method, path, body, apiKey string) (int, []byte) {
	req, err := http.NewRequest(method, e.srv.URL()+path, strings.NewReader(body))
	require.NoError(e.t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if apiKey != "" {
		req.Header.Set("X-API-Key", apiKey)
	}
	status, b, _ := do(e.t, req)
	return status, b
}

// envd makes a request to the sandbox's envd with its headers (hdr adds or,
// with "", removes some).
func (e *env) envd(method, path, ct string, body []byte, hdr map[string]string) (int, []byte, http.Header) {
	req, err := http.NewRequest(method, e.srv.URL()+path, bytes.NewReader(body))
	require.NoError(e.t, err)
	req.Header.Set("E2b-Sandbox-Id", e.id)
	req.Header.Set("E2b-Sandbox-Port", "49983")
	req.Header.Set("X-Access-Token", e.token)
	req.Header.Set("Connect-Protocol-Version", "1")
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	return do(e.t, req)
}

func (e *env) unary(procedure, msg string) (int, map[string]any) {
	status, b, _ := e.envd(http.MethodPost, procedure, "application/json", []byte(msg), nil)
	var out map[string]any
	require.NoError(e.t, json.Unmarshal(b, &out), "%s: %s", procedure, b)
	return status, out
}

// stream makes a server-streaming call and returns its events (the
// messages' "event" members) and end-of-stream message.
func (e *env) stream(procedure, msg string, hdr map[string]string) ([]map[string]any, connectrpc.EndStream) {
	e.t.Helper()
	status, b, h := e.envd(http.MethodPost, procedure, "application/connect+json", connectrpc.AppendEnvelope(nil, 0, []byte(msg)), hdr)
	require.Equal(e.t, http.StatusOK, status, "%s", b)
	assert.Equal(e.t, "application/connect+json", h.Get("Content-Type"))
	return parseStream(e.t, b)
}

func parseStream(t *testing.T, b []byte) ([]map[string]any, connectrpc.EndStream) {
	t.Helper()
	r := bytes.NewReader(b)
	var events []map[string]any
	for {
		en, err := connectrpc.ReadEnvelope(r, 0)
		require.NoError(t, err, "the stream ends with an end-of-stream envelope")
		if en.EndStream() {
			es, err := connectrpc.ParseEndStream(en.Data)
			require.NoError(t, err)
			return events, es
		}
		var m struct {
			Event map[string]any `json:"event"`
		}
		require.NoError(t, json.Unmarshal(en.Data, &m))
		events = append(events, m.Event)
	}
}

func kinds(events []map[string]any) string {
	var ks []string
	for _, ev := range events {
		for k := range ev {
			ks = append(ks, k)
		}
	}
	return strings.Join(ks, ",")
}

func stdout(t *testing.T, events []map[string]any) string {
	var out []byte
	for _, ev := range events {
		if d, ok := ev["data"].(map[string]any); ok {
			if s, ok := d["stdout"].(string); ok {
				var b []byte
				require.NoError(t, json.Unmarshal([]byte(strconv.Quote(s)), &b))
				out = append(out, b...)
			}
		}
	}
	return string(out)
}

func start(cmd string) string {
	b, _ := json.Marshal(map[string]any{"process": map[string]any{"cmd": "/bin/bash", "args": []string{"-l", "-c", cmd}}, "stdin": false})
	return string(b)
}

func TestControlPlaneAuthAndValidation(t *testing.T) {
	e := setup(t)
	status, b := e.api(http.MethodGet, "/sandboxes/"+e.id, "", "")
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.JSONEq(t, `{"code":401,"message":"Invalid API key format"}`, string(b))
	status, b = e.api(http.MethodGet, "/sandboxes/"+e.id, "", "e2b_bad")
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Contains(t, string(b), `"message":"Invalid API key`)

	for _, timeout := range []string{"0", "-5"} {
		status, b = e.api(http.MethodPost, "/sandboxes", `{"templateID":"base","timeout":`+timeout+`}`, key)
		assert.Equal(t, http.StatusBadRequest, status)
		assert.JSONEq(t, `{"code":400,"message":"Timeout must be greater than 0"}`, string(b))
	}
	status, _ = e.api(http.MethodPost, "/sandboxes", `{"templateID":"base","timeout":90000}`, key)
	assert.Equal(t, http.StatusBadRequest, status, "past the team's longest life")

	status, b = e.api(http.MethodGet, "/sandboxes/"+e.id, "", key)
	require.Equal(t, http.StatusOK, status)
	var d map[string]any
	require.NoError(t, json.Unmarshal(b, &d))
	for _, k := range []string{"templateID", "sandboxID", "clientID", "startedAt", "endAt", "cpuCount", "memoryMB", "state", "envdVersion", "envdAccessToken", "metadata"} {
		assert.Contains(t, d, k)
	}
	assert.Equal(t, "running", d["state"])
	assert.Equal(t, map[string]any{"k": "v"}, d["metadata"])

	status, b = e.api(http.MethodGet, "/sandboxes/nope", "", key)
	assert.Equal(t, http.StatusNotFound, status)
	assert.JSONEq(t, `{"code":404,"message":"Sandbox \"nope\" doesn't exist or you don't have access to it"}`, string(b))
	status, _ = e.api(http.MethodGet, "/sandboxes/Bad!", "", key)
	assert.Equal(t, http.StatusBadRequest, status)
	status, _ = e.api(http.MethodGet, "/sandboxes/"+e.id+"-6532622b", "", key)
	assert.Equal(t, http.StatusOK, status, "the legacy <id>-<clientID>")

	status, _ = e.api(http.MethodPost, "/sandboxes/"+e.id+"/timeout", `{}`, key)
	assert.Equal(t, http.StatusBadRequest, status, "timeout is required")
	status, _ = e.api(http.MethodPost, "/sandboxes/"+e.id+"/timeout", `{"timeout":120}`, key)
	assert.Equal(t, http.StatusNoContent, status)
	status, _ = e.api(http.MethodPost, "/sandboxes/"+e.id+"/connect", `{"timeout":30}`, key)
	assert.Equal(t, http.StatusOK, status, "connect to a running sandbox")
	status, _ = e.api(http.MethodPost, "/sandboxes/"+e.id+"/pause", ``, key)
	assert.Equal(t, http.StatusNoContent, status)
	status, _ = e.api(http.MethodPost, "/sandboxes/"+e.id+"/pause", ``, key)
	assert.Equal(t, http.StatusConflict, status)
	status, _ = e.api(http.MethodPost, "/sandboxes/"+e.id+"/connect", `{"timeout":30}`, key)
	assert.Equal(t, http.StatusCreated, status, "connect resumes a paused sandbox")

	status, _ = e.api(http.MethodDelete, "/sandboxes/"+e.id, "", key)
	assert.Equal(t, http.StatusNoContent, status)
	status, _ = e.api(http.MethodDelete, "/sandboxes/"+e.id, "", key)
	assert.Equal(t, http.StatusNotFound, status)
}

func TestEnvdAuthAndGone(t *testing.T) {
	e := setup(t)
	status, _, _ := e.envd(http.MethodGet, "/health", "", nil, map[string]string{"X-Access-Token": ""})
	assert.Equal(t, http.StatusNoContent, status, "/health needs no token")
	for _, tok := range []string{"", "wrong"} {
		status, b, _ := e.envd(http.MethodGet, "/files?path=x", "", nil, map[string]string{"X-Access-Token": tok})
		assert.Equal(t, http.StatusUnauthorized, status)
		assert.JSONEq(t, `{"code":401,"message":"unauthorized access, please provide a valid access token or method signing if supported"}`, string(b))
	}
	status, b, _ := e.envd(http.MethodGet, "/health", "", nil, map[string]string{"E2b-Sandbox-Port": "8080"})
	assert.Equal(t, http.StatusBadGateway, status)
	assert.Contains(t, string(b), "port is not open")

	status, _ = e.api(http.MethodPost, "/sandboxes/"+e.id+"/timeout", `{"timeout":1}`, key)
	require.Equal(t, http.StatusNoContent, status)
	time.Sleep(1200 * time.Millisecond)
	status, _ = e.api(http.MethodGet, "/sandboxes/"+e.id, "", key)
	assert.Equal(t, http.StatusNotFound, status, "expired at endAt")
	status, b, _ = e.envd(http.MethodGet, "/health", "", nil, nil)
	assert.Equal(t, http.StatusBadGateway, status)
	assert.JSONEq(t, `{"sandboxId":"`+e.id+`","message":"The sandbox was not found","code":502}`, string(b))
}

func TestHostRouting(t *testing.T) {
	e := setup(t)
	req, err := http.NewRequest(http.MethodGet, e.srv.URL()+"/health", nil)
	require.NoError(t, err)
	req.Host = "49983-" + e.id + ".e2b.test"
	status, _, _ := do(t, req)
	assert.Equal(t, http.StatusNoContent, status, "routed by the Host <port>-<id>.<domain>")
}

func TestUnknownFieldsAndContentTypes(t *testing.T) {
	e := setup(t)
	status, out := e.unary("/filesystem.Filesystem/Stat", `{"path":"","bogus":1}`)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, "invalid_argument", out["code"])
	assert.Contains(t, out["message"], "bogus")

	events, es := e.stream("/process.Process/Start", `{"process":{"cmd":"/bin/bash","args":["-c","true"],"extra":true}}`, nil)
	assert.Empty(t, events)
	require.NotNil(t, es.Error)
	assert.Equal(t, "invalid_argument", es.Error.Code)

	status, _, _ = e.envd(http.MethodPost, "/filesystem.Filesystem/Stat", "text/plain", []byte(`{}`), nil)
	assert.Equal(t, http.StatusUnsupportedMediaType, status)
	status, _, _ = e.envd(http.MethodPost, "/process.Process/Start", "application/json", []byte(start("true")), nil)
	assert.Equal(t, http.StatusUnsupportedMediaType, status)

	status, out = e.unary("/filesystem.Filesystem/CreateWatcher", `{}`)
	assert.Equal(t, http.StatusNotImplemented, status)
	assert.Equal(t, "unimplemented", out["code"])

	status, out = e.unary("/process.Process/List", `{}`)
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, []any{}, out["processes"])

	status, b, _ := e.envd(http.MethodPost, "/process.Process/List", "application/json", []byte(`{}`), map[string]string{"Authorization": "Basic cm9vdDo="}) // root:
	assert.Equal(t, http.StatusOK, status, "root exists: %s", b)
	status, b, _ = e.envd(http.MethodPost, "/process.Process/List", "application/json", []byte(`{}`), map[string]string{"Authorization": "Basic YWRtaW46"}) // admin:
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Contains(t, string(b), "invalid username: 'admin'")
}

func TestStartStreamsAndEnds(t *testing.T) {
	e := setup(t)
	events, es := e.stream("/process.Process/Start", start("echo out; echo err >&2; exit 3"), nil)
	assert.Nil(t, es.Error)
	require.NotEmpty(t, events)
	assert.Contains(t, events[0], "start", "start comes first")
	assert.Equal(t, "out\n", stdout(t, events))
	last := events[len(events)-1]["end"].(map[string]any)
	assert.Equal(t, map[string]any{"exitCode": float64(3), "exited": true, "status": "exit status 3", "error": "exit status 3"}, last)

	events, es = e.stream("/process.Process/Start", start("true"), nil)
	assert.Nil(t, es.Error)
	assert.Equal(t, map[string]any{"exited": true, "status": "exit status 0"}, events[len(events)-1]["end"], "zero values are left out")

	events, es = e.stream("/process.Process/Start", `{"process":{"cmd":"/bin/bash","args":["-c","pwd"],"cwd":"no/such/dir"}}`, nil)
	assert.Empty(t, events)
	require.NotNil(t, es.Error)
	assert.Equal(t, "invalid_argument", es.Error.Code)
	assert.Contains(t, es.Error.Message, "does not exist")

	events, _ = e.stream("/process.Process/Start", `{"process":{"cmd":"/bin/echo","args":["a b","it's"]}}`, nil)
	assert.Equal(t, "a b it's\n", stdout(t, events), "other commands run as a quoted command line")
	events, _ = e.stream("/process.Process/Start", `{"process":{"cmd":"/bin/bash","args":["-c","echo $1:$2","name","x y","z"]}}`, nil)
	assert.Equal(t, "x y:z\n", stdout(t, events), "bash -c SCRIPT NAME ARGS... gets ARGS as positional parameters")
}

func TestConnectTimeoutKills(t *testing.T) {
	e := setup(t)
	begin := time.Now()
	events, es := e.stream("/process.Process/Start", start("echo a; sleep 10; echo b"), map[string]string{"Connect-Timeout-Ms": "500"})
	assert.Less(t, time.Since(begin), 5*time.Second)
	require.NotNil(t, es.Error)
	assert.Equal(t, "deadline_exceeded", es.Error.Code)
	assert.Equal(t, "a\n", stdout(t, events))
	assert.NotContains(t, kinds(events), "end", "the stream ends with the error, not an end event")
	_, out := e.unary("/process.Process/List", `{}`)
	assert.Equal(t, []any{}, out["processes"], "the process was killed")

	_, es = e.stream("/process.Process/Start", start("true"), map[string]string{"Connect-Timeout-Ms": "abc"})
	require.NotNil(t, es.Error)
	assert.Equal(t, "invalid_argument", es.Error.Code)
}

func TestKeepalive(t *testing.T) {
	e := setup(t)
	events, es := e.stream("/process.Process/Start", start("sleep 2.3; echo x"), map[string]string{"Keepalive-Ping-Interval": "1"})
	assert.Nil(t, es.Error)
	assert.Contains(t, kinds(events), "keepalive")
	assert.Equal(t, "x\n", stdout(t, events))
}

func TestListSignalConnect(t *testing.T) {
	e := setup(t)
	type result struct {
		events []map[string]any
		es     connectrpc.EndStream
	}
	done := make(chan result, 1)
	go func() {
		ev, es := e.stream("/process.Process/Start", start("echo one; sleep 30"), nil)
		done <- result{ev, es}
	}()
	var pid float64
	require.Eventually(t, func() bool {
		_, out := e.unary("/process.Process/List", `{}`)
		ps, _ := out["processes"].([]any)
		if len(ps) != 1 {
			return false
		}
		p := ps[0].(map[string]any)
		pid = p["pid"].(float64)
		cfg := p["config"].(map[string]any)
		return cfg["cmd"] == "/bin/bash"
	}, 5*time.Second, 20*time.Millisecond)
	pidS := strconv.Itoa(int(pid))

	// Connect while it runs: start, the output so far, then live.
	connected := make(chan []map[string]any, 1)
	go func() {
		ev, _ := e.stream("/process.Process/Connect", `{"process":{"pid":`+pidS+`}}`, nil)
		connected <- ev
	}()
	time.Sleep(1500 * time.Millisecond) // each command builds its root first

	status, out := e.unary("/process.Process/SendSignal", `{"process":{"pid":`+pidS+`},"signal":"SIGNAL_SIGKILL"}`)
	require.Equal(t, http.StatusOK, status, "%v", out)
	r := <-done
	assert.Nil(t, r.es.Error)
	assert.Equal(t, "one\n", stdout(t, r.events))
	assert.Equal(t, map[string]any{"exitCode": float64(-1), "status": "signal: killed", "error": "signal: killed"}, r.events[len(r.events)-1]["end"])
	ev := <-connected
	assert.Contains(t, ev[0], "start")
	assert.Equal(t, "one\n", stdout(t, ev))
	assert.Contains(t, ev[len(ev)-1], "end")

	// After it ended: replayed.
	ev, es := e.stream("/process.Process/Connect", `{"process":{"pid":`+pidS+`}}`, nil)
	assert.Nil(t, es.Error)
	assert.Equal(t, "start,data,end", kinds(ev))

	status, out = e.unary("/process.Process/SendSignal", `{"process":{"pid":`+pidS+`},"signal":"SIGNAL_SIGKILL"}`)
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, "not_found", out["code"])
	assert.Equal(t, "process with pid "+pidS+" not found", out["message"])
	status, _ = e.unary("/process.Process/SendSignal", `{"process":{"pid":1},"signal":"SIGNAL_SIGHUP"}`)
	assert.Equal(t, http.StatusBadRequest, status)
}

func TestFilesAndFilesystem(t *testing.T) {
	e := setup(t)
	status, out := e.unary("/filesystem.Filesystem/Stat", `{"path":""}`)
	require.Equal(t, http.StatusOK, status)
	home := out["entry"].(map[string]any)["path"].(string)
	assert.Equal(t, e2btest.HomeDir, home, "the home is E2B's")

	status, b, _ := e.envd(http.MethodPost, "/files?path=d/a.txt", "application/octet-stream", []byte("hello"), nil)
	require.Equal(t, http.StatusOK, status, "%s", b)
	assert.JSONEq(t, `[{"path":"`+home+`/d/a.txt","name":"a.txt","type":"file"}]`, string(b))

	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	fw, _ := mw.CreateFormFile("file", home+"/d/m.txt")
	_, _ = fw.Write([]byte("multi"))
	_ = mw.Close()
	status, b, _ = e.envd(http.MethodPost, "/files", mw.FormDataContentType(), mp.Bytes(), nil)
	require.Equal(t, http.StatusOK, status, "%s", b)

	status, b, h := e.envd(http.MethodGet, "/files?path="+url.QueryEscape(home+"/d/m.txt"), "", nil, nil)
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, "multi", string(b))
	assert.Equal(t, "application/octet-stream", h.Get("Content-Type"))
	status, b, _ = e.envd(http.MethodGet, "/files?path=d", "", nil, nil)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, string(b), "is a directory")
	status, b, _ = e.envd(http.MethodGet, "/files?path=nope", "", nil, nil)
	assert.Equal(t, http.StatusNotFound, status)
	assert.JSONEq(t, `{"code":404,"message":"path '`+home+`/nope' does not exist"}`, string(b))
	status, _, _ = e.envd(http.MethodPost, "/files?path=x", "text/plain", []byte("x"), nil)
	assert.Equal(t, http.StatusBadRequest, status)

	status, out = e.unary("/filesystem.Filesystem/Stat", `{"path":"d/a.txt"}`)
	require.Equal(t, http.StatusOK, status)
	ent := out["entry"].(map[string]any)
	assert.Equal(t, "a.txt", ent["name"])
	assert.Equal(t, "FILE_TYPE_FILE", ent["type"])
	assert.Equal(t, home+"/d/a.txt", ent["path"])
	assert.Equal(t, "5", ent["size"], "int64 is a JSON string")
	assert.Equal(t, "-rw-r--r--", ent["permissions"])
	_, err := time.Parse(time.RFC3339Nano, ent["modifiedTime"].(string))
	assert.NoError(t, err)

	status, out = e.unary("/filesystem.Filesystem/ListDir", `{"path":"d","depth":1}`)
	require.Equal(t, http.StatusOK, status)
	assert.Len(t, out["entries"], 2)
	status, out = e.unary("/filesystem.Filesystem/ListDir", `{"path":"d/a.txt"}`)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, "invalid_argument", out["code"])
	status, out = e.unary("/filesystem.Filesystem/ListDir", `{"path":"nodir"}`)
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, "not_found", out["code"])

	status, out = e.unary("/filesystem.Filesystem/MakeDir", `{"path":"x/y"}`)
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, "FILE_TYPE_DIRECTORY", out["entry"].(map[string]any)["type"])
	status, out = e.unary("/filesystem.Filesystem/MakeDir", `{"path":"x/y"}`)
	assert.Equal(t, http.StatusConflict, status)
	assert.Equal(t, "already_exists", out["code"])
	status, _ = e.unary("/filesystem.Filesystem/MakeDir", `{"path":"d/a.txt"}`)
	assert.Equal(t, http.StatusBadRequest, status)

	status, out = e.unary("/filesystem.Filesystem/Move", `{"source":"d","destination":"x/y/d2"}`)
	require.Equal(t, http.StatusOK, status, "%v", out)
	status, b, _ = e.envd(http.MethodGet, "/files?path=x/y/d2/a.txt", "", nil, nil)
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, "hello", string(b))
	status, _ = e.unary("/filesystem.Filesystem/Stat", `{"path":"d"}`)
	assert.Equal(t, http.StatusNotFound, status, "moved away")

	status, out = e.unary("/filesystem.Filesystem/Remove", `{"path":"x"}`)
	assert.Equal(t, http.StatusOK, status)
	assert.Empty(t, out)
	status, _ = e.unary("/filesystem.Filesystem/Remove", `{"path":"x"}`)
	assert.Equal(t, http.StatusOK, status, "a missing path is not an error")
}

// TestSandboxPaths: envd and the commands show E2B's tree, /home/user and
// /tmp, never the backend's paths, and agree on what is in it.
func TestSandboxPaths(t *testing.T) {
	e := setup(t)
	back, ok := e.srv.Backend(e.id)
	require.True(t, ok)
	info, err := back.GetInfo(t.Context())
	require.NoError(t, err)
	if !e.srv.ExactCommandPaths(e.id) {
		t.Log("the backend's commands get no mount namespace here: paths are rewritten")
	}

	status, out := e.unary("/filesystem.Filesystem/ListDir", `{"path":"/home","depth":1}`)
	require.Equal(t, http.StatusOK, status, "%v", out)
	ents := out["entries"].([]any)
	require.Len(t, ents, 1)
	assert.Equal(t, "/home/user", ents[0].(map[string]any)["path"])
	status, out = e.unary("/filesystem.Filesystem/Stat", `{"path":"/tmp"}`)
	require.Equal(t, http.StatusOK, status, "%v", out)
	assert.Equal(t, "FILE_TYPE_DIRECTORY", out["entry"].(map[string]any)["type"])

	status, b, _ := e.envd(http.MethodPost, "/files?path=/tmp/state/t.txt", "application/octet-stream", []byte("from files\n"), nil)
	require.Equal(t, http.StatusOK, status, "%s", b)
	assert.JSONEq(t, `[{"path":"/tmp/state/t.txt","name":"t.txt","type":"file"}]`, string(b))
	events, es := e.stream("/process.Process/Start", start("cat /tmp/state/t.txt; pwd; echo $HOME; mkdir sub && cd sub && pwd > /tmp/state/cwd"), nil)
	require.Nil(t, es.Error)
	assert.Equal(t, "from files\n/home/user\n/home/user\n", stdout(t, events))
	assert.NotContains(t, stdout(t, events), info.Workdir)
	status, b, _ = e.envd(http.MethodGet, "/files?path=/tmp/state/cwd", "", nil, nil)
	require.Equal(t, http.StatusOK, status, "%s", b)
	if e.srv.ExactCommandPaths(e.id) {
		assert.Equal(t, "/home/user/sub\n", string(b), "a path a command wrote into a file is the sandbox's")
	}
	events, es = e.stream("/process.Process/Start", `{"process":{"cmd":"/bin/bash","args":["-l","-c","pwd"],"cwd":"/home/user/sub"}}`, nil)
	require.Nil(t, es.Error)
	assert.Equal(t, "/home/user/sub\n", stdout(t, events), "cwd is a sandbox path")

	status, b, _ = e.envd(http.MethodPost, "/files?path=/etc/planted", "application/octet-stream", []byte("x"), nil)
	assert.Equal(t, http.StatusBadRequest, status, "%s", b)
	status, b, _ = e.envd(http.MethodGet, "/files?path=/etc/passwd", "", nil, nil)
	assert.Equal(t, http.StatusNotFound, status, "%s", b)
}

func TestFaultsAndLog(t *testing.T) {
	e := setup(t)
	e.srv.ResetRequests()
	e.srv.FailNext("/sandboxes/", http.StatusServiceUnavailable, 1)
	status, b := e.api(http.MethodGet, "/sandboxes/"+e.id, "", key)
	assert.Equal(t, http.StatusServiceUnavailable, status)
	assert.JSONEq(t, `{"code":503,"message":"e2btest: injected fault"}`, string(b))
	status, _ = e.api(http.MethodGet, "/sandboxes/"+e.id, "", key)
	assert.Equal(t, http.StatusOK, status, "the fault is used up")
	reqs := e.srv.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, key, reqs[0].Header.Get("X-API-Key"))

	e.stream("/process.Process/Start", start("true"), nil)
	reqs = e.srv.Requests()
	last := reqs[len(reqs)-1]
	assert.True(t, last.Envd)
	assert.Equal(t, e.id, last.SandboxID)
	assert.Equal(t, "/bin/bash", last.Body.(map[string]any)["process"].(map[string]any)["cmd"], "the stream's request message is decoded")
}

func TestCloseEndsRunningCommands(t *testing.T) {
	e := setup(t)
	req, err := http.NewRequest(http.MethodPost, e.srv.URL()+"/process.Process/Start", bytes.NewReader(connectrpc.AppendEnvelope(nil, 0, []byte(start("sleep 60")))))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/connect+json")
	req.Header.Set("E2b-Sandbox-Id", e.id)
	req.Header.Set("E2b-Sandbox-Port", "49983")
	req.Header.Set("X-Access-Token", e.token)
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		done <- err // the connection breaks: the sandbox is gone
	}()
	time.Sleep(300 * time.Millisecond)
	closed := make(chan struct{})
	go func() { e.srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close hung on a running command")
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the stream did not end")
	}
}

func TestNetworkRules(t *testing.T) {
	e := &env{t: t, srv: newServer(t)}
	for _, tc := range []struct {
		network string
		status  int
		message string
	}{
		{`{"allowOut":["example.com"],"denyOut":["0.0.0.0/0"]}`, http.StatusCreated, ""},
		{`{"allowOut":["1.1.1.1","10.0.0.0/8"]}`, http.StatusCreated, ""},
		{`{"denyOut":["10.0.0.0/8","8.8.8.8"]}`, http.StatusCreated, ""},
		{`{"allowOut":["example.com"]}`, http.StatusBadRequest, "requires denyOut to contain 0.0.0.0/0"},
		{`{"allowOut":["example.com"],"denyOut":["10.0.0.0/8"]}`, http.StatusBadRequest, "requires denyOut to contain 0.0.0.0/0"},
		{`{"denyOut":["10.0.0.0/33"]}`, http.StatusBadRequest, `invalid denyOut entry "10.0.0.0/33"`},
		{`{"denyOut":["example.com"]}`, http.StatusBadRequest, `invalid denyOut entry "example.com"`},
		{`{"allowOut":["300.1.1.1"],"denyOut":["0.0.0.0/0"]}`, http.StatusBadRequest, `invalid allowOut entry "300.1.1.1"`},
		{`{"allowOut":["1.2.3.0/xx"],"denyOut":["0.0.0.0/0"]}`, http.StatusBadRequest, `invalid allowOut entry "1.2.3.0/xx"`},
		{`{"allowOut":["bad domain"],"denyOut":["0.0.0.0/0"]}`, http.StatusBadRequest, `invalid allowOut entry "bad domain"`},
	} {
		status, b := e.api(http.MethodPost, "/v2/sandboxes", `{"templateID":"base","timeout":30,"network":`+tc.network+`}`, key)
		assert.Equal(t, tc.status, status, "%s: %s", tc.network, b)
		if tc.message != "" {
			var out map[string]any
			require.NoError(t, json.Unmarshal(b, &out))
			assert.Equal(t, float64(400), out["code"])
			assert.Contains(t, out["message"], tc.message)
		}
	}
}

func TestUnknownRouteIsNotSandboxNotFound(t *testing.T) {
	e := setup(t)
	status, b := e.api(http.MethodGet, "/sandboxes/"+e.id+"/logs", "", key)
	assert.Equal(t, http.StatusNotImplemented, status, "%s", b)
	assert.Contains(t, string(b), "not implemented by the test server")
	status, b = e.api(http.MethodGet, "/sandboxes/"+e.id+"/metrics", "", key)
	assert.Equal(t, http.StatusOK, status, "%s", b)
	var m []map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	require.Len(t, m, 1)
	assert.Contains(t, m[0], "cpuCount")
	assert.Contains(t, m[0], "memTotal")
	status, _ = e.api(http.MethodGet, "/sandboxes/nosuchsandbox/metrics", "", key)
	assert.Equal(t, http.StatusNotFound, status)
}

func TestListV2(t *testing.T) {
	e := setup(t) // metadata k=v
	status, b := e.api(http.MethodPost, "/v2/sandboxes", `{"templateID":"other","timeout":30,"metadata":{"k":"w","a b":"c&d"}}`, key)
	require.Equal(t, http.StatusCreated, status, "%s", b)
	var second map[string]any
	require.NoError(t, json.Unmarshal(b, &second))
	assert.NotEmpty(t, second["envdAccessToken"], "v2 sandboxes are secure")
	id2 := second["sandboxID"].(string)
	require.NoError(t, e.srv.Pause(id2))

	list := func(query string) ([]string, http.Header) {
		req, err := http.NewRequest(http.MethodGet, e.srv.URL()+"/v2/sandboxes?"+query, nil)
		require.NoError(t, err)
		req.Header.Set("X-API-Key", key)
		status, b, h := do(t, req)
		require.Equal(t, http.StatusOK, status, "%s: %s", query, b)
		var out []map[string]any
		require.NoError(t, json.Unmarshal(b, &out))
		var ids []string
		for _, s := range out {
			ids = append(ids, s["sandboxID"].(string))
		}
		return ids, h
	}
	ids, h := list("order=asc")
	assert.Equal(t, []string{e.id, id2}, ids)
	assert.Equal(t, "1", h.Get("X-Total-Running"))
	ids, _ = list("")
	assert.Equal(t, []string{id2, e.id}, ids, "newest first by default")
	ids, _ = list("state=running")
	assert.Equal(t, []string{e.id}, ids)
	ids, _ = list("state=paused&state=running&order=asc")
	assert.Equal(t, []string{e.id, id2}, ids)
	ids, _ = list("state=running,paused&template=other")
	assert.Equal(t, []string{id2}, ids)
	ids, _ = list("metadata=" + url.QueryEscape("a%20b=c%26d"))
	assert.Equal(t, []string{id2}, ids, "keys and values encoded, then the whole")
	ids, _ = list("metadata=" + url.QueryEscape("k=v"))
	assert.Equal(t, []string{e.id}, ids)

	ids, h = list("limit=1&order=asc")
	assert.Equal(t, []string{e.id}, ids)
	require.Equal(t, e.id, h.Get("X-Next-Token"))
	ids, h = list("limit=1&order=asc&nextToken=" + e.id)
	assert.Equal(t, []string{id2}, ids)
	assert.Empty(t, h.Get("X-Next-Token"), "the last page")

	for _, q := range []string{"limit=0", "limit=101", "state=gone", "order=up", "nextToken=nope"} {
		req, err := http.NewRequest(http.MethodGet, e.srv.URL()+"/v2/sandboxes?"+q, nil)
		require.NoError(t, err)
		req.Header.Set("X-API-Key", key)
		status, b, _ := do(t, req)
		assert.Equal(t, http.StatusBadRequest, status, "%s: %s", q, b)
	}
}
