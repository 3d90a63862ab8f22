package e2b_test

import (
	"context"
	"encoding/binary"
	"errors"
	"io/fs"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/e2b"
	"github.com/agentenkit/agentenkit/providers/e2b/e2btest"
	"github.com/agentenkit/agentenkit/sandbox"
)

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// requests returns the requests srv got for method and path.
func requests(srv *e2btest.Server, method, path string) []e2btest.Request {
	var out []e2btest.Request
	for _, r := range srv.Requests() {
		if r.Method == method && r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// one returns the only request srv got for method and path.
func one(t *testing.T, srv *e2btest.Server, method, path string) e2btest.Request {
	t.Helper()
	rs := requests(srv, method, path)
	require.Len(t, rs, 1, "requests %s %s", method, path)
	return rs[0]
}

func body(t *testing.T, r e2btest.Request) map[string]any {
	t.Helper()
	m, ok := r.Body.(map[string]any)
	require.True(t, ok, "body of %s %s is a JSON object: %s", r.Method, r.Path, r.Raw)
	return m
}

// create makes a sandbox on srv and destroys it at the end.
func create(t *testing.T, p *e2b.Provider, opts sandbox.CreateSandboxOptions) *e2b.Sandbox {
	t.Helper()
	sb, err := p.Create(ctxT(t), opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = sb.Destroy(context.Background()) })
	return sb.(*e2b.Sandbox)
}

func TestWireCreate(t *testing.T) {
	srv := newServer(t)
	p := newProvider(srv, e2b.Options{})
	sb := create(t, p, sandbox.CreateSandboxOptions{
		Timeout:  90*time.Second + 500*time.Millisecond,
		Metadata: map[string]string{"thread": "t-1"},
		Envs:     map[string]string{"A": "1"},
	})
	r := one(t, srv, http.MethodPost, "/v2/sandboxes")
	assert.Empty(t, requests(srv, http.MethodPost, "/sandboxes"), "v1 is not asked where v2 answers")
	assert.False(t, r.Envd)
	assert.Equal(t, testKey, r.Header.Get("X-API-Key"))
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	assert.Equal(t, map[string]any{
		"templateID":            "base",
		"timeout":               float64(91), // ceil of 90.5 s
		"metadata":              map[string]any{"thread": "t-1"},
		"envVars":               map[string]any{"A": "1"},
		"allow_internet_access": false,
	}, body(t, r), "v2 sandboxes are always secure: no secure field")
	assert.Regexp(t, `^[a-z0-9]{20}$`, sb.ID())
	assert.Equal(t, testDomain, sb.Domain(), "the domain of the answer")

	srv.ResetRequests()
	create(t, p, sandbox.CreateSandboxOptions{Network: sandbox.Network{Mode: sandbox.NetworkAll}, Template: "code-interpreter-v1"})
	b := body(t, one(t, srv, http.MethodPost, "/v2/sandboxes"))
	assert.Equal(t, true, b["allow_internet_access"])
	assert.Equal(t, "code-interpreter-v1", b["templateID"])
	assert.Equal(t, float64(300), b["timeout"], "the default lifetime")
	assert.NotContains(t, b, "network")
	assert.NotContains(t, b, "metadata")

	srv.ResetRequests()
	create(t, p, sandbox.CreateSandboxOptions{Network: sandbox.AllowDomains("api.example.com", "example.org")})
	b = body(t, one(t, srv, http.MethodPost, "/v2/sandboxes"))
	assert.Equal(t, false, b["allow_internet_access"])
	assert.Equal(t, map[string]any{
		"allowOut": []any{"api.example.com", "example.org"},
		"denyOut":  []any{"0.0.0.0/0"},
	}, b["network"])
}

// A control plane without the v2 routes gets v1's create and connect, with
// secure asked for, from then on.
func TestWireV1Fallback(t *testing.T) {
	srv := e2btest.New(e2btest.Options{Backend: newBackend(t), APIKey: testKey, Domain: testDomain, V1Only: true})
	t.Cleanup(srv.Close)
	p := newProvider(srv, e2b.Options{})
	sb := create(t, p, sandbox.CreateSandboxOptions{})
	assert.Len(t, requests(srv, http.MethodPost, "/v2/sandboxes"), 1)
	assert.Equal(t, true, body(t, one(t, srv, http.MethodPost, "/sandboxes"))["secure"])
	token, _ := srv.AccessToken(sb.ID())
	assert.NotEmpty(t, token)
	create(t, p, sandbox.CreateSandboxOptions{})
	assert.Len(t, requests(srv, http.MethodPost, "/v2/sandboxes"), 1, "v2 is not asked again")
	assert.Len(t, requests(srv, http.MethodPost, "/sandboxes"), 2)

	require.NoError(t, srv.Pause(sb.ID()))
	srv.ResetRequests()
	resumed, err := newProvider(srv, e2b.Options{}).Connect(ctxT(t), sb.ID())
	require.NoError(t, err)
	assert.Len(t, requests(srv, http.MethodPost, "/v2/sandboxes/"+sb.ID()+"/connect"), 1)
	one(t, srv, http.MethodPost, "/sandboxes/"+sb.ID()+"/connect")
	res, err := resumed.RunCommand(ctxT(t), "echo v1", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "v1\n", res.Stdout)
}

func TestCreateRefusals(t *testing.T) {
	srv := newServer(t)
	p := newProvider(srv, e2b.Options{})
	ctx := ctxT(t)
	for name, opts := range map[string]sandbox.CreateSandboxOptions{
		"image":        {Image: "some-image:1"},
		"resources":    {Resources: sandbox.Resources{CPUs: 2}},
		"restore-from": {RestoreFrom: "abc"},
	} {
		_, err := p.Create(ctx, opts)
		assert.ErrorIs(t, err, sandbox.ErrUnsupported, name)
	}
	_, err := p.Create(ctx, sandbox.CreateSandboxOptions{Extra: map[string]any{"x": 1}})
	assert.ErrorContains(t, err, `unknown Extra option "x"`)
	_, err = p.Create(ctx, sandbox.CreateSandboxOptions{Network: sandbox.AllowDomains("bad domain")})
	assert.Error(t, err)
	assert.Empty(t, requests(srv, http.MethodPost, "/v2/sandboxes"), "refusals make no request")
}

func TestWireConnectAndResume(t *testing.T) {
	srv := newServer(t)
	sb := create(t, newProvider(srv, e2b.Options{}), sandbox.CreateSandboxOptions{})
	ctx := ctxT(t)
	token, _ := srv.AccessToken(sb.ID())
	require.NotEmpty(t, token)

	srv.ResetRequests()
	other, err := newProvider(srv, e2b.Options{}).Connect(ctx, sb.ID())
	require.NoError(t, err)
	r := one(t, srv, http.MethodGet, "/sandboxes/"+sb.ID())
	assert.Equal(t, testKey, r.Header.Get("X-API-Key"))
	assert.Empty(t, requests(srv, http.MethodPost, "/sandboxes/"+sb.ID()+"/connect"), "a running sandbox is not resumed")
	res, err := other.RunCommand(ctx, "echo via-connect", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "via-connect\n", res.Stdout)
	assert.Equal(t, token, one(t, srv, http.MethodPost, "/process.Process/Start").Header.Get("X-Access-Token"), "the token from the detail")

	require.NoError(t, srv.Pause(sb.ID()))
	_, err = other.RunCommand(ctx, "true", sandbox.RunCommandOptions{})
	assert.ErrorIs(t, err, sandbox.ErrGone, "a paused sandbox's envd answers 502")
	srv.ResetRequests()
	resumed, err := newProvider(srv, e2b.Options{}).Connect(ctx, sb.ID())
	require.NoError(t, err)
	r = one(t, srv, http.MethodPost, "/v2/sandboxes/"+sb.ID()+"/connect")
	assert.Equal(t, map[string]any{"timeout": float64(300)}, body(t, r))
	assert.Equal(t, testKey, r.Header.Get("X-API-Key"))
	res, err = resumed.RunCommand(ctx, "echo resumed", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "resumed\n", res.Stdout)
}

func TestWireTimeoutAndDelete(t *testing.T) {
	srv := newServer(t)
	sb := create(t, newProvider(srv, e2b.Options{}), sandbox.CreateSandboxOptions{})
	ctx := ctxT(t)
	require.NoError(t, sb.SetTimeout(ctx, 1500*time.Millisecond+10*time.Minute))
	r := one(t, srv, http.MethodPost, "/sandboxes/"+sb.ID()+"/timeout")
	assert.Equal(t, map[string]any{"timeout": float64(602)}, body(t, r))
	assert.Equal(t, testKey, r.Header.Get("X-API-Key"))
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	info, err := sb.GetInfo(ctx)
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now().Add(602*time.Second), info.EndAt, 3*time.Second)

	require.NoError(t, sb.Destroy(ctx))
	r = one(t, srv, http.MethodDelete, "/sandboxes/"+sb.ID())
	assert.Equal(t, testKey, r.Header.Get("X-API-Key"))
	assert.NoError(t, sb.Destroy(ctx), "a 404 on DELETE is fine")
	assert.Len(t, requests(srv, http.MethodDelete, "/sandboxes/"+sb.ID()), 2)
}

// checkEnvd checks the headers every envd request carries.
func checkEnvd(t *testing.T, r e2btest.Request, id, token string) {
	t.Helper()
	assert.True(t, r.Envd, "%s %s goes to envd", r.Method, r.Path)
	assert.Equal(t, id, r.Header.Get("E2b-Sandbox-Id"), "%s %s", r.Method, r.Path)
	assert.Equal(t, "49983", r.Header.Get("E2b-Sandbox-Port"), "%s %s", r.Method, r.Path)
	assert.Equal(t, token, r.Header.Get("X-Access-Token"), "%s %s", r.Method, r.Path)
	assert.Empty(t, r.Header.Get("X-API-Key"), "the API key stays off envd")
}

func checkUnary(t *testing.T, r e2btest.Request, id, token string) {
	t.Helper()
	checkEnvd(t, r, id, token)
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"), r.Path)
	assert.Equal(t, "1", r.Header.Get("Connect-Protocol-Version"), r.Path)
}

func TestWireStart(t *testing.T) {
	srv := newServer(t)
	sb := create(t, newProvider(srv, e2b.Options{}), sandbox.CreateSandboxOptions{})
	ctx := ctxT(t)
	info, err := sb.GetInfo(ctx)
	require.NoError(t, err)
	token, _ := srv.AccessToken(sb.ID())
	require.NoError(t, sb.FileSystem().Mkdir(ctx, "sub"))

	srv.ResetRequests()
	res, err := sb.RunCommand(ctx, "echo hi; echo oops >&2; exit 3", sandbox.RunCommandOptions{Cwd: "sub", Env: map[string]string{"A": "b"}, Timeout: 7 * time.Second})
	require.NoError(t, err)
	assert.Equal(t, "hi\n", res.Stdout)
	assert.Equal(t, "oops\n", res.Stderr)
	assert.Equal(t, 3, res.ExitCode)

	r := one(t, srv, http.MethodPost, "/process.Process/Start")
	checkEnvd(t, r, sb.ID(), token)
	assert.Equal(t, "application/connect+json", r.Header.Get("Content-Type"))
	assert.Equal(t, "1", r.Header.Get("Connect-Protocol-Version"))
	assert.Equal(t, "7000", r.Header.Get("Connect-Timeout-Ms"))
	assert.Equal(t, "50", r.Header.Get("Keepalive-Ping-Interval"))
	require.GreaterOrEqual(t, len(r.Raw), 5)
	assert.Equal(t, byte(0), r.Raw[0], "request envelope flags")
	assert.Equal(t, uint32(len(r.Raw)-5), binary.BigEndian.Uint32(r.Raw[1:5]), "one envelope is the whole body")
	b := body(t, r)
	assert.Equal(t, false, b["stdin"])
	proc := b["process"].(map[string]any)
	assert.Equal(t, "/bin/bash", proc["cmd"])
	assert.Equal(t, []any{"-l", "-c", "echo hi; echo oops >&2; exit 3"}, proc["args"])
	assert.Equal(t, info.Workdir+"/sub", proc["cwd"], "a relative Cwd resolves against the work folder")
	envs := proc["envs"].(map[string]any)
	assert.Equal(t, "b", envs["A"])
	assert.Regexp(t, `^[0-9a-f]{24}$`, envs["AGENTENKIT_COMMAND_ID"])
	assert.Len(t, b, 2, "only process and stdin: %v", b)
	assert.Len(t, proc, 4, "only cmd, args, envs and cwd: %v", proc)
}

func TestWireFiles(t *testing.T) {
	srv := newServer(t)
	sb := create(t, newProvider(srv, e2b.Options{}), sandbox.CreateSandboxOptions{})
	ctx := ctxT(t)
	info, err := sb.GetInfo(ctx)
	require.NoError(t, err)
	wd := info.Workdir
	token, _ := srv.AccessToken(sb.ID())
	fsys := sb.FileSystem()

	// The work folder was asked once, by Stat of the empty path.
	r := one(t, srv, http.MethodPost, "/filesystem.Filesystem/Stat")
	checkUnary(t, r, sb.ID(), token)
	assert.Equal(t, map[string]any{"path": ""}, body(t, r))

	srv.ResetRequests()
	require.NoError(t, fsys.WriteFile(ctx, "a/b.txt", []byte("data\x00\xff")))
	r = one(t, srv, http.MethodPost, "/files")
	checkEnvd(t, r, sb.ID(), token)
	assert.Equal(t, wd+"/a/b.txt", r.Query.Get("path"))
	assert.Equal(t, "application/octet-stream", r.Header.Get("Content-Type"))
	assert.Equal(t, "data\x00\xff", string(r.Raw))

	got, err := fsys.ReadFile(ctx, wd+"/a/b.txt")
	require.NoError(t, err)
	assert.Equal(t, "data\x00\xff", got)
	r = one(t, srv, http.MethodGet, "/files")
	checkEnvd(t, r, sb.ID(), token)
	assert.Equal(t, wd+"/a/b.txt", r.Query.Get("path"))

	entries, err := fsys.ReadDir(ctx, "a")
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, sandbox.FileEntry{Name: "b.txt", Path: wd + "/a/b.txt", Size: 6, ModTime: entries[0].ModTime}, entries[0])
	assert.False(t, entries[0].ModTime.IsZero())
	r = one(t, srv, http.MethodPost, "/filesystem.Filesystem/ListDir")
	checkUnary(t, r, sb.ID(), token)
	assert.Equal(t, map[string]any{"path": wd + "/a", "depth": float64(1)}, body(t, r))

	require.NoError(t, fsys.Mkdir(ctx, "a/c"))
	r = one(t, srv, http.MethodPost, "/filesystem.Filesystem/MakeDir")
	checkUnary(t, r, sb.ID(), token)
	assert.Equal(t, map[string]any{"path": wd + "/a/c"}, body(t, r))
	require.NoError(t, fsys.Mkdir(ctx, "a/c"), "already_exists is fine")

	srv.ResetRequests()
	ok, err := fsys.Exists(ctx, "a/c")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, map[string]any{"path": wd + "/a/c"}, body(t, one(t, srv, http.MethodPost, "/filesystem.Filesystem/Stat")))

	srv.ResetRequests()
	require.NoError(t, fsys.Remove(ctx, "a"))
	assert.Equal(t, map[string]any{"path": wd + "/a"}, body(t, one(t, srv, http.MethodPost, "/filesystem.Filesystem/Stat")), "Remove stats first")
	r = one(t, srv, http.MethodPost, "/filesystem.Filesystem/Remove")
	checkUnary(t, r, sb.ID(), token)
	assert.Equal(t, map[string]any{"path": wd + "/a"}, body(t, r))

	srv.ResetRequests()
	err = fsys.Remove(ctx, "a")
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Empty(t, requests(srv, http.MethodPost, "/filesystem.Filesystem/Remove"), "a missing path is not sent to Remove")

	require.NoError(t, fsys.Mkdir(ctx, "dir"))
	_, err = fsys.ReadFile(ctx, "dir")
	assert.ErrorIs(t, err, fs.ErrInvalid, "reading a folder")
	var pe *fs.PathError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "dir", pe.Path)
	var ae *e2b.APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusBadRequest, ae.StatusCode)
	assert.Contains(t, ae.Message, "is a directory")

	_, err = fsys.ReadDir(ctx, "nodir")
	assert.ErrorIs(t, err, fs.ErrNotExist)
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "not_found", ae.Code)
	assert.Equal(t, "/filesystem.Filesystem/ListDir", ae.Path)
}

func TestWorkdirOption(t *testing.T) {
	srv := newServer(t)
	probe := create(t, newProvider(srv, e2b.Options{}), sandbox.CreateSandboxOptions{})
	info, err := probe.GetInfo(ctxT(t))
	require.NoError(t, err)
	// A fixed work folder inside the sandbox: nothing is asked.
	srv.ResetRequests()
	sb, err := newProvider(srv, e2b.Options{Workdir: info.Workdir}).Connect(ctxT(t), probe.ID())
	require.NoError(t, err)
	got, err := sb.GetInfo(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, info.Workdir, got.Workdir)
	assert.Empty(t, requests(srv, http.MethodPost, "/filesystem.Filesystem/Stat"))
	_, err = sb.RunCommand(ctxT(t), "true", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	proc := body(t, one(t, srv, http.MethodPost, "/process.Process/Start"))["process"].(map[string]any)
	assert.Equal(t, info.Workdir, proc["cwd"], "commands start in Options.Workdir")

	_, err = e2b.New(testKey, e2b.Options{Workdir: "relative"})
	assert.ErrorContains(t, err, "not absolute")
}

func TestGetURL(t *testing.T) {
	srv := newServer(t)
	sb := create(t, newProvider(srv, e2b.Options{}), sandbox.CreateSandboxOptions{})
	ctx := ctxT(t)
	u, err := sb.GetURL(ctx, 8080, "")
	require.NoError(t, err)
	assert.Equal(t, "http://8080-"+sb.ID()+"."+testDomain, u)
	u, err = sb.GetURL(ctx, 3000, "https")
	require.NoError(t, err)
	assert.Equal(t, "https://3000-"+sb.ID()+"."+testDomain, u)
	_, err = sb.GetURL(ctx, 0, "http")
	assert.Error(t, err)

	// On E2B's own domains ports are served over TLS only: https by default.
	cloud := e2btest.New(e2btest.Options{Backend: newBackend(t), APIKey: testKey})
	t.Cleanup(cloud.Close)
	sb3 := create(t, newProvider(cloud, e2b.Options{Domain: "e2b.app"}), sandbox.CreateSandboxOptions{})
	u, err = sb3.GetURL(ctx, 8080, "")
	require.NoError(t, err)
	assert.Equal(t, "https://8080-"+sb3.ID()+".e2b.app", u)

	// A server that sends no domain: the configured one.
	bare := e2btest.New(e2btest.Options{Backend: newBackend(t), APIKey: testKey})
	t.Cleanup(bare.Close)
	sb2 := create(t, newProvider(bare, e2b.Options{Domain: "example.e2b"}), sandbox.CreateSandboxOptions{})
	u, err = sb2.GetURL(ctx, 80, "https")
	require.NoError(t, err)
	assert.Equal(t, "https://80-"+sb2.ID()+".example.e2b", u)
}

// hostRewriter sends every request to the test server, keeping the Host it
// was meant for, and records the URLs.
type hostRewriter struct {
	srv  *e2btest.Server
	urls chan string
}

func (h hostRewriter) RoundTrip(r *http.Request) (*http.Response, error) {
	select {
	case h.urls <- r.URL.Scheme + "://" + r.URL.Host + r.URL.Path:
	default:
	}
	r2 := r.Clone(r.Context())
	r2.Host = r.URL.Host
	r2.URL.Scheme, r2.URL.Host = "http", strings.TrimPrefix(h.srv.URL(), "http://")
	return http.DefaultTransport.RoundTrip(r2)
}

func TestEnvdHostWithoutSandboxURL(t *testing.T) {
	srv := newServer(t)
	rw := hostRewriter{srv: srv, urls: make(chan string, 100)}
	p, err := e2b.New(testKey, e2b.Options{Domain: testDomain, HTTPClient: &http.Client{Transport: rw}})
	require.NoError(t, err)
	sb := create(t, p, sandbox.CreateSandboxOptions{})
	res, err := sb.RunCommand(ctxT(t), "echo routed", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "routed\n", res.Stdout)
	var seen []string
	for len(rw.urls) > 0 {
		seen = append(seen, <-rw.urls)
	}
	assert.Contains(t, seen, "https://api."+testDomain+"/v2/sandboxes")
	assert.Contains(t, seen, "https://49983-"+sb.ID()+"."+testDomain+"/process.Process/Start")
}

func TestGoneSandbox(t *testing.T) {
	srv := newServer(t)
	p := newProvider(srv, e2b.Options{})
	sb := create(t, p, sandbox.CreateSandboxOptions{})
	ctx := ctxT(t)
	_, err := sb.GetInfo(ctx) // learns the work folder
	require.NoError(t, err)
	require.True(t, srv.Kill(sb.ID()))

	_, err = p.Connect(ctx, sb.ID())
	assert.ErrorIs(t, err, sandbox.ErrGone)
	var ae *e2b.APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusNotFound, ae.StatusCode)
	assert.Equal(t, "/sandboxes/"+sb.ID(), ae.Path)
	assert.Contains(t, ae.Message, "doesn't exist")

	srv.ResetRequests()
	_, err = sb.RunCommand(ctx, "echo hi", sandbox.RunCommandOptions{})
	assert.ErrorIs(t, err, sandbox.ErrGone, "envd's 502")
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusBadGateway, ae.StatusCode)
	assert.Equal(t, "The sandbox was not found", ae.Message)
	_, err = sb.FileSystem().ReadFile(ctx, "x")
	assert.ErrorIs(t, err, sandbox.ErrGone)
	assert.NotErrorIs(t, err, fs.ErrNotExist)
	assert.Len(t, requests(srv, http.MethodGet, "/files"), 1, "a gone 502 is not retried")
	assert.ErrorIs(t, sb.FileSystem().WriteFile(ctx, "x", nil), sandbox.ErrGone)
	_, err = sb.FileSystem().Exists(ctx, "x")
	assert.ErrorIs(t, err, sandbox.ErrGone)
	_, err = sb.GetInfo(ctx)
	assert.ErrorIs(t, err, sandbox.ErrGone)
	_, err = sb.GetURL(ctx, 80, "")
	assert.ErrorIs(t, err, sandbox.ErrGone)
	assert.ErrorIs(t, sb.SetTimeout(ctx, time.Minute), sandbox.ErrGone)
	assert.NoError(t, sb.Destroy(ctx))

	for _, id := range []string{"", "UPPER", "a-b", "../x"} {
		_, err := p.Connect(ctx, id)
		assert.ErrorIs(t, err, sandbox.ErrGone, "Connect(%q)", id)
	}
}

func TestGoneMidCommand(t *testing.T) {
	srv := newServer(t)
	sb := create(t, newProvider(srv, e2b.Options{}), sandbox.CreateSandboxOptions{})
	ctx := ctxT(t)
	go func() {
		time.Sleep(500 * time.Millisecond)
		srv.Kill(sb.ID())
	}()
	start := time.Now()
	_, err := sb.RunCommand(ctx, "echo started; sleep 20", sandbox.RunCommandOptions{})
	assert.ErrorIs(t, err, sandbox.ErrGone, "the stream broke and the control plane says 404")
	assert.Less(t, time.Since(start), 10*time.Second)
}

func TestExpiredTTL(t *testing.T) {
	srv := newServer(t)
	p := newProvider(srv, e2b.Options{})
	sb := create(t, p, sandbox.CreateSandboxOptions{Timeout: time.Second})
	ctx := ctxT(t)
	res, err := sb.RunCommand(ctx, "echo alive", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "alive\n", res.Stdout)
	time.Sleep(1500 * time.Millisecond)
	_, err = p.Connect(ctx, sb.ID())
	assert.ErrorIs(t, err, sandbox.ErrGone)
	_, err = sb.RunCommand(ctx, "echo late", sandbox.RunCommandOptions{})
	assert.ErrorIs(t, err, sandbox.ErrGone)
	_, err = sb.FileSystem().ReadDir(ctx, "/")
	assert.ErrorIs(t, err, sandbox.ErrGone)
}

func TestRetries(t *testing.T) {
	srv := newServer(t)
	p := newProvider(srv, e2b.Options{RetryBackoff: 5 * time.Millisecond})
	sb := create(t, p, sandbox.CreateSandboxOptions{})
	ctx := ctxT(t)
	require.NoError(t, sb.FileSystem().WriteFile(ctx, "f.txt", []byte("x")))

	t.Run("429 then success on an idempotent call", func(t *testing.T) {
		srv.ResetRequests()
		srv.FailNext("/files", http.StatusTooManyRequests, 1)
		got, err := sb.FileSystem().ReadFile(ctx, "f.txt")
		require.NoError(t, err)
		assert.Equal(t, "x", got)
		assert.Len(t, requests(srv, http.MethodGet, "/files"), 2)
	})
	t.Run("5xx twice on the control plane", func(t *testing.T) {
		srv.ResetRequests()
		srv.FailNext("/sandboxes/"+sb.ID(), http.StatusServiceUnavailable, 2)
		_, err := sb.GetInfo(ctx)
		require.NoError(t, err)
		assert.Len(t, requests(srv, http.MethodGet, "/sandboxes/"+sb.ID()), 3)
	})
	t.Run("gives up after Attempts", func(t *testing.T) {
		srv.ResetRequests()
		srv.FailNext("/filesystem.Filesystem/ListDir", http.StatusInternalServerError, 5)
		_, err := sb.FileSystem().ReadDir(ctx, ".")
		var ae *e2b.APIError
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, http.StatusInternalServerError, ae.StatusCode)
		assert.Equal(t, "e2btest: injected fault", ae.Message)
		assert.Len(t, requests(srv, http.MethodPost, "/filesystem.Filesystem/ListDir"), 3)
		srv.Inject(e2btest.Fault{}) // no-op; the two faults left are used below
		_, _ = sb.FileSystem().ReadDir(ctx, ".")
	})
	t.Run("Process/Start is never retried", func(t *testing.T) {
		srv.ResetRequests()
		srv.FailNext("/process.Process/Start", http.StatusTooManyRequests, 1)
		_, err := sb.RunCommand(ctx, "echo once", sandbox.RunCommandOptions{})
		var ae *e2b.APIError
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, http.StatusTooManyRequests, ae.StatusCode)
		assert.Len(t, requests(srv, http.MethodPost, "/process.Process/Start"), 1)
		res, err := sb.RunCommand(ctx, "echo twice", sandbox.RunCommandOptions{})
		require.NoError(t, err)
		assert.Equal(t, "twice\n", res.Stdout)
	})
	t.Run("POST /v2/sandboxes is never retried", func(t *testing.T) {
		srv.ResetRequests()
		srv.Inject(e2btest.Fault{PathPrefix: "/v2/sandboxes", Method: http.MethodPost, Status: http.StatusServiceUnavailable, Times: 1})
		_, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
		assert.Equal(t, http.StatusServiceUnavailable, apiStatus(err))
		assert.Len(t, requests(srv, http.MethodPost, "/v2/sandboxes"), 1)
		assert.Empty(t, requests(srv, http.MethodPost, "/sandboxes"), "a 503 is no reason to fall back to v1")
	})
	t.Run("507 insufficient storage is not retried", func(t *testing.T) {
		srv.ResetRequests()
		srv.FailNext("/files", http.StatusInsufficientStorage, 1)
		err := sb.FileSystem().WriteFile(ctx, "big.bin", []byte("x"))
		assert.Equal(t, http.StatusInsufficientStorage, apiStatus(err))
		assert.Len(t, requests(srv, http.MethodPost, "/files"), 1)
	})
	t.Run("Retry-After is honoured", func(t *testing.T) {
		srv.ResetRequests()
		srv.Inject(e2btest.Fault{PathPrefix: "/sandboxes/" + sb.ID() + "/timeout", Status: http.StatusTooManyRequests, Times: 1, Header: http.Header{"Retry-After": {"1"}}})
		start := time.Now()
		require.NoError(t, sb.SetTimeout(ctx, time.Hour))
		assert.GreaterOrEqual(t, time.Since(start), 900*time.Millisecond)
		assert.Len(t, requests(srv, http.MethodPost, "/sandboxes/"+sb.ID()+"/timeout"), 2)
	})
	t.Run("a 502 sandbox-not-found is gone at once", func(t *testing.T) {
		srv.ResetRequests()
		srv.Inject(e2btest.Fault{PathPrefix: "/filesystem.Filesystem/Stat", Status: http.StatusBadGateway, Times: 1,
			Body: `{"sandboxId":"` + sb.ID() + `","message":"The sandbox was not found","code":502}`})
		_, err := sb.FileSystem().Exists(ctx, "f.txt")
		assert.ErrorIs(t, err, sandbox.ErrGone)
		assert.Len(t, requests(srv, http.MethodPost, "/filesystem.Filesystem/Stat"), 1)
	})
}

func apiStatus(err error) int {
	var ae *e2b.APIError
	if errors.As(err, &ae) {
		return ae.StatusCode
	}
	return 0
}

func TestAuthErrors(t *testing.T) {
	srv := newServer(t)
	ctx := ctxT(t)

	wrong, err := e2b.New("e2b_wrong", e2b.Options{APIURL: srv.URL(), SandboxURL: srv.URL()})
	require.NoError(t, err)
	_, err = wrong.Create(ctx, sandbox.CreateSandboxOptions{})
	var ae *e2b.APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusUnauthorized, ae.StatusCode)
	assert.Equal(t, http.MethodPost, ae.Method)
	assert.Equal(t, "/v2/sandboxes", ae.Path)
	assert.Contains(t, ae.Message, "Invalid API key")
	assert.Contains(t, err.Error(), "401")
	assert.Contains(t, err.Error(), "Invalid API key")

	p, err := e2b.New("", e2b.Options{APIURL: srv.URL()})
	assert.Nil(t, p)
	assert.ErrorContains(t, err, "no API key")
	_, err = e2b.New(testKey, e2b.Options{APIURL: "ftp://x"})
	assert.ErrorContains(t, err, "APIURL")
	_, err = e2b.New(testKey, e2b.Options{APIURL: srv.URL(), SandboxURL: "nope"})
	assert.ErrorContains(t, err, "SandboxURL")

	sb := create(t, newProvider(srv, e2b.Options{}), sandbox.CreateSandboxOptions{})
	_, err = sb.GetInfo(ctx)
	require.NoError(t, err)
	require.NoError(t, srv.SetAccessToken(sb.ID(), "another-token"))
	_, err = sb.FileSystem().ReadFile(ctx, "x")
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusUnauthorized, ae.StatusCode)
	assert.Contains(t, ae.Message, "unauthorized access, please provide a valid access token")
	_, err = sb.RunCommand(ctx, "true", sandbox.RunCommandOptions{})
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusUnauthorized, ae.StatusCode)
	assert.Equal(t, "/process.Process/Start", ae.Path)
	assert.NotErrorIs(t, err, sandbox.ErrGone)
}

func TestKilledBySignal(t *testing.T) {
	srv := newServer(t)
	sb := create(t, newProvider(srv, e2b.Options{}), sandbox.CreateSandboxOptions{})
	ctx := ctxT(t)
	done := make(chan sandbox.CommandResult, 1)
	up := make(chan struct{})
	go func() {
		res, err := sb.RunCommand(ctx, "echo up; sleep 30", sandbox.RunCommandOptions{Stdout: writerFunc(func(p []byte) { close(up) })})
		assert.NoError(t, err)
		done <- res
	}()
	pid := waitForProcess(t, srv, sb.ID())
	<-up
	rpc(t, srv, sb.ID(), "/process.Process/SendSignal", `{"process":{"pid":`+pid+`},"signal":"SIGNAL_SIGKILL"}`, http.StatusOK)
	select {
	case res := <-done:
		assert.Equal(t, 137, res.ExitCode, "killed by SIGKILL: 128+9")
		assert.False(t, res.TimedOut)
		assert.Equal(t, "up\n", res.Stdout)
	case <-time.After(10 * time.Second):
		t.Fatal("the killed command did not return")
	}
}

func TestCallerCancelKillsCommand(t *testing.T) {
	srv := newServer(t)
	sb := create(t, newProvider(srv, e2b.Options{}), sandbox.CreateSandboxOptions{})
	ctx, cancel := context.WithCancel(ctxT(t))
	go func() {
		waitForProcess(t, srv, sb.ID())
		cancel()
	}()
	_, err := sb.RunCommand(ctx, "sleep 30", sandbox.RunCommandOptions{})
	assert.ErrorIs(t, err, context.Canceled)
	require.Eventually(t, func() bool { return listProcesses(t, srv, sb.ID()) == "[]" }, 5*time.Second, 50*time.Millisecond, "the command was killed")
	assert.NotEmpty(t, requests(srv, http.MethodPost, "/process.Process/SendSignal"))
}

// writerFunc calls f with each write.
type writerFunc func(p []byte)

func (f writerFunc) Write(p []byte) (int, error) {
	f(p)
	return len(p), nil
}

func TestTimeoutSweepsEscapedChildren(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid is not installed")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("the sweep needs bash")
	}
	srv := newServer(t)
	sb := create(t, newProvider(srv, e2b.Options{}), sandbox.CreateSandboxOptions{})
	ctx := ctxT(t)
	// A child in its own session escapes the local backend's group kill;
	// only the sweep by marker variable finds it.
	res, err := sb.RunCommand(ctx, "setsid sh -c 'sleep 4; echo late > escaped' & sleep 30", sandbox.RunCommandOptions{Timeout: time.Second})
	require.NoError(t, err)
	require.True(t, res.TimedOut)
	sweeps := 0
	for _, r := range requests(srv, http.MethodPost, "/process.Process/Start") {
		if args, _ := body(t, r)["process"].(map[string]any)["args"].([]any); len(args) == 4 && args[2] == "sweep" {
			sweeps++
		}
	}
	assert.Equal(t, 1, sweeps)
	time.Sleep(4 * time.Second)
	ok, err := sb.FileSystem().Exists(ctx, "escaped")
	require.NoError(t, err)
	assert.False(t, ok, "the escaped child lived on after the time-out")
}

// Where the test server gives commands a root of their own, they run as
// the user asked for (uid 1000 "user" by default, "root" when asked) and
// see none of the host's folders but its system ones, read-only.
func TestCommandsUsersAndRoot(t *testing.T) {
	srv := newServer(t)
	ctx := ctxT(t)
	sb := create(t, newProvider(srv, e2b.Options{}), sandbox.CreateSandboxOptions{})
	if !srv.ExactCommandPaths(sb.ID()) {
		t.Skip("the test server's commands get no mount namespace on this host")
	}
	res, err := sb.RunCommand(ctx, `id -u; whoami; echo "$HOME"; ls /; touch /usr/x 2>/dev/null || echo read-only`, sandbox.RunCommandOptions{})
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	require.GreaterOrEqual(t, len(lines), 5, "%s %s", res.Stdout, res.Stderr)
	assert.Equal(t, []string{"1000", "user", "/home/user"}, lines[:3])
	assert.Equal(t, "read-only", lines[len(lines)-1])
	allowed := map[string]bool{"bin": true, "sbin": true, "lib": true, "lib32": true, "lib64": true, "libx32": true, "usr": true, "etc": true, "opt": true, "home": true, "tmp": true, "proc": true, "dev": true, "root": true, "run": true, "var": true}
	for _, name := range lines[3 : len(lines)-1] {
		assert.True(t, allowed[name], "ls / shows %q, a folder of the host", name)
	}

	root := create(t, newProvider(srv, e2b.Options{User: "root"}), sandbox.CreateSandboxOptions{})
	res, err = root.RunCommand(ctx, `id -u; echo "$HOME"`, sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "0\n/root\n", res.Stdout, res.Stderr)
}
