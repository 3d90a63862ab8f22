package wasm_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/sandbox"
)

// testCA is a certificate authority made for one test, and a server
// certificate it signed for names.
func testCA(t testing.TB, names ...string) (*x509.CertPool, tls.Certificate) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "agentenkit test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	require.NoError(t, err)
	caCert, err := x509.ParseCertificate(caDER)
	require.NoError(t, err)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: names[0]}, DNSNames: names,
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(caCert)
	return pool, tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// netServers are the loopback servers of a network test.
type netServers struct {
	plain, secure *httptest.Server
	pool          *x509.CertPool
	mu            sync.Mutex
	auth          []string // Authorization headers the server got
	port          string   // plain's port
	tlsPort       string
	events        []wasm.NetworkEvent // what the host was told
}

func startServers(t *testing.T) *netServers {
	s := &netServers{}
	mux := http.NewServeMux()
	mux.HandleFunc("/hello", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "hello %s %s\n", r.Method, r.Host)
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%s %s ct=%s ua=%s body=%s\n", r.Method, r.URL.RequestURI(), r.Header.Get("Content-Type"), r.UserAgent(), b)
	})
	mux.HandleFunc("/auth", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		s.mu.Unlock()
		if r.Header.Get("Authorization") == "Bearer host-secret-token" {
			fmt.Fprintln(w, "authorized")
			return
		}
		http.Error(w, "no", http.StatusUnauthorized)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, 1<<20))
	})
	s.plain = httptest.NewServer(mux)
	t.Cleanup(s.plain.Close)
	pool, cert := testCA(t, "secure.test")
	s.pool = pool
	s.secure = httptest.NewUnstartedServer(mux)
	s.secure.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	s.secure.StartTLS()
	t.Cleanup(s.secure.Close)
	_, s.port, _ = net.SplitHostPort(s.plain.Listener.Addr().String())
	_, s.tlsPort, _ = net.SplitHostPort(s.secure.Listener.Addr().String())
	return s
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// testResolve maps every test name to loopback: no DNS is asked.
var testResolve = map[string]string{
	"api.test": "127.0.0.1", "secure.test": "127.0.0.1", "evil.test": "127.0.0.1",
	"sub.api.test": "127.0.0.1", "rebind.test": "127.0.0.1",
}

func netProvider(t *testing.T, s *netServers, loopback bool) *wasm.Provider {
	return newProvider(t, nil, wasm.Options{
		OnNetwork: func(ev wasm.NetworkEvent) {
			s.mu.Lock()
			s.events = append(s.events, ev)
			s.mu.Unlock()
		},
		TestNetwork: &wasm.TestNetwork{Resolve: testResolve, AllowLoopback: loopback, RootCAs: s.pool},
		NetworkHeaders: func(host string) http.Header {
			if host == "api.test" {
				return http.Header{"Authorization": {"Bearer host-secret-token"}}
			}
			return nil
		},
	})
}

func TestNetworkCurlWget(t *testing.T) {
	t.Parallel()
	s := startServers(t)
	p := netProvider(t, s, true)
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{Network: sandbox.AllowDomains("api.test", "secure.test")})
	api := "http://api.test:" + s.port
	for _, tc := range []struct {
		cmd, out string
		code     int
		errHas   string
	}{
		{cmd: "curl -s " + api + "/hello", out: "hello GET api.test:" + s.port + "\n"},
		{cmd: "curl -sS https://secure.test:" + s.tlsPort + "/hello", out: "hello GET secure.test:" + s.tlsPort + "\n"},
		{cmd: "wget -q -O - " + api + "/hello", out: "hello GET api.test:" + s.port + "\n"},
		{cmd: "wget -qO- https://secure.test:" + s.tlsPort + "/hello", out: "hello GET secure.test:" + s.tlsPort + "\n"},
		{cmd: "curl -s -o /dev/null -w '%{http_code}\\n' " + api + "/missing", out: "404\n"},
		{cmd: "curl -sSf " + api + "/missing", code: 22, errHas: "curl: (22) The requested URL returned error: 404"},
		{cmd: "curl -s -d a=1 -d b=2 " + api + "/echo", out: "POST /echo ct=application/x-www-form-urlencoded ua=curl/7.88.1 body=a=1&b=2\n"},
		{cmd: "printf 'x\\ny' > f.bin; curl -s --data-binary @f.bin -H 'Content-Type: text/plain' " + api + "/echo", out: "POST /echo ct=text/plain ua=curl/7.88.1 body=x\ny\n"},
		{cmd: "curl -s -o page.txt " + api + "/hello && cat page.txt", out: "hello GET api.test:" + s.port + "\n"},
		{cmd: "curl -sL '" + api + "/redirect?to=/hello'", out: "hello GET api.test:" + s.port + "\n"},
		{cmd: "curl -s " + api + "/auth", out: "authorized\n"},
		{cmd: "curl -s http://evil.test:" + s.port + "/hello", code: 7},
		{cmd: "curl -sS http://evil.test:" + s.port + "/hello", code: 7, errHas: "curl: (7) Failed to connect to evil.test port " + s.port + " after 0 ms: blocked by the sandbox's network policy: host not in allow list"},
		{cmd: "curl -sSL '" + api + "/redirect?to=http://evil.test:" + s.port + "/hello'", code: 7, errHas: "blocked by the sandbox's network policy: host not in allow list"},
		{cmd: "curl -sS http://10.1.2.3/", code: 7, errHas: "blocked by the sandbox's network policy: host not in allow list"},
		{cmd: "wget -q -O - http://evil.test:" + s.port + "/hello", code: 4},
		{cmd: "curl -s " + api + "/big | wc -c", out: "1048576\n"},
	} {
		res := run(t, sb, tc.cmd, sandbox.RunCommandOptions{})
		assert.Equal(t, tc.code, res.ExitCode, "%s: %s", tc.cmd, res.Stderr)
		if tc.out != "" {
			assert.Equal(t, tc.out, res.Stdout, tc.cmd)
		}
		if tc.errHas != "" {
			assert.Contains(t, res.Stderr, tc.errHas, tc.cmd)
		}
	}
	// The injected header reached the server; the guest sees it nowhere.
	res := run(t, sb, "env; cat /proc/self/environ /proc/1/environ 2>/dev/null; grep -r host-secret-token / 2>/dev/null; echo done", sandbox.RunCommandOptions{})
	assert.NotContains(t, res.Stdout+res.Stderr, "host-secret-token")
	s.mu.Lock()
	assert.Contains(t, s.auth, "Bearer host-secret-token")
	assert.Contains(t, s.events, wasm.NetworkEvent{Host: "evil.test", Port: atoi(s.port), Reason: "blocked by the sandbox's network policy: host not in allow list"}, "the host hears of a refused connection")
	s.mu.Unlock()
}

func TestNetworkAddressChecks(t *testing.T) {
	t.Parallel()
	s := startServers(t)
	p := netProvider(t, s, false) // loopback is refused, as in real use
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{Network: sandbox.Network{Mode: sandbox.NetworkAll}})
	for _, tc := range []struct{ url, why string }{
		{"http://rebind.test:" + s.port + "/hello", "address 127.0.0.1 is loopback"},
		{"http://127.0.0.1:" + s.port + "/hello", "address 127.0.0.1 is loopback"},
		{"http://[::1]:" + s.port + "/hello", "address ::1 is loopback"},
		{"http://10.0.0.1/", "address 10.0.0.1 is private"},
		{"http://192.168.1.1/", "address 192.168.1.1 is private"},
		{"http://169.254.169.254/latest/meta-data/", "address 169.254.169.254 is link-local (cloud metadata)"},
		{"http://100.64.0.1/", "address 100.64.0.1 is reserved"},
		{"http://224.0.0.1/", "address 224.0.0.1 is multicast"},
		{"http://[::ffff:127.0.0.1]/", "address 127.0.0.1 is loopback"},
	} {
		res := run(t, sb, "curl -sS "+tc.url, sandbox.RunCommandOptions{})
		assert.Equal(t, 7, res.ExitCode, tc.url)
		assert.Contains(t, res.Stderr, "blocked by the sandbox's network policy: "+tc.why, tc.url)
	}
	// No network at all by default.
	none := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	res := run(t, none, "curl -sS http://api.test:"+s.port+"/hello", sandbox.RunCommandOptions{})
	assert.Equal(t, 7, res.ExitCode)
	assert.Contains(t, res.Stderr, "blocked by the sandbox's network policy: the sandbox has no network")
	assert.True(t, strings.HasPrefix(res.Stderr, "curl: (7) "), res.Stderr)
}

// clientCases runs each program (its source in $SRC for cmd) in a sandbox
// that may reach api.test and secure.test, and checks what it prints.
func clientCases(t *testing.T, cmd string, cases func(s *netServers, api, sec string) [][2]string) {
	t.Parallel()
	s := startServers(t)
	p := netProvider(t, s, true)
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{Network: sandbox.AllowDomains("api.test", "secure.test")})
	for _, tc := range cases(s, "http://api.test:"+s.port, "https://secure.test:"+s.tlsPort) {
		res := run(t, sb, cmd, sandbox.RunCommandOptions{Env: map[string]string{"SRC": tc[0]}})
		assert.Equal(t, 0, res.ExitCode, "%s\n%s", tc[0], res.Stderr)
		assert.Equal(t, tc[1], res.Stdout, tc[0])
	}
}

func TestNetworkPython(t *testing.T) {
	v := pythonMinor(t)
	clientCases(t, `python3 -c "$SRC"`, func(s *netServers, api, sec string) [][2]string {
		return [][2]string{
			{"import urllib.request\nprint(urllib.request.urlopen('" + api + "/hello').read().decode(), end='')",
				"hello GET api.test:" + s.port + "\n"},
			{"import urllib.request\nprint(urllib.request.urlopen('" + sec + "/hello').read().decode(), end='')",
				"hello GET secure.test:" + s.tlsPort + "\n"},
			{"import urllib.request\nr = urllib.request.urlopen(urllib.request.Request('" + api + "/echo', data=b'x=1'))\nprint(r.status, r.read().decode(), end='')",
				"200 POST /echo ct=application/x-www-form-urlencoded ua=Python-urllib/" + v + " body=x=1\n"},
			{"import http.client\nc = http.client.HTTPConnection('api.test', " + s.port + ")\nc.request('GET', '/missing')\nr = c.getresponse()\nprint(r.status, r.reason)",
				"404 Not Found\n"},
			{"import http.client\nc = http.client.HTTPSConnection('secure.test', " + s.tlsPort + ")\nc.request('GET', '/hello')\nprint(c.getresponse().read().decode(), end='')",
				"hello GET secure.test:" + s.tlsPort + "\n"},
			{"import socket\ns = socket.create_connection(('api.test', " + s.port + "))\ns.sendall(b'GET /hello HTTP/1.0\\r\\nHost: x\\r\\n\\r\\n')\nprint(s.makefile('rb').readline().decode().strip())",
				"HTTP/1.1 200 OK\n"},
			{"import urllib.request\nprint(urllib.request.urlopen('" + api + "/auth').read().decode(), end='')", "authorized\n"},
			{"import urllib.request, urllib.error\ntry:\n    urllib.request.urlopen('http://evil.test:" + s.port + "/hello')\nexcept urllib.error.URLError as e:\n    print(type(e.reason).__name__, e.reason.strerror)",
				"PermissionError blocked by the sandbox's network policy: host not in allow list\n"},
			{"import urllib.request, urllib.error\ntry:\n    urllib.request.urlopen('" + api + "/redirect?to=http://evil.test:" + s.port + "/hello')\nexcept urllib.error.URLError as e:\n    print(type(e.reason).__name__, e.reason.strerror)",
				"PermissionError blocked by the sandbox's network policy: host not in allow list\n"},
			{"import socket\ntry:\n    socket.create_connection(('10.0.0.1', 80))\nexcept OSError as e:\n    print(type(e).__name__, e.strerror)",
				"PermissionError blocked by the sandbox's network policy: host not in allow list\n"},
		}
	})
}

func TestNetworkNode(t *testing.T) {
	clientCases(t, `node -e "$SRC"`, func(s *netServers, api, sec string) [][2]string {
		return [][2]string{
			{"fetch('" + api + "/hello').then(r => r.text().then(t => console.log(r.status, r.ok, r.headers.get('content-type'), JSON.stringify(t))))",
				"200 true text/plain \"hello GET api.test:" + s.port + "\\n\"\n"},
			{"fetch('" + sec + "/hello').then(r => r.text()).then(t => process.stdout.write(t))", "hello GET secure.test:" + s.tlsPort + "\n"},
			{"fetch('" + api + "/echo', {method: 'POST', body: JSON.stringify({a: 1}), headers: {'content-type': 'application/json'}}).then(r => r.text()).then(t => process.stdout.write(t))",
				"POST /echo ct=application/json ua=node body={\"a\":1}\n"},
			{"fetch('" + api + "/redirect?to=/hello').then(r => console.log(r.redirected, r.url))", "true " + api + "/hello\n"},
			{"fetch('http://evil.test:" + s.port + "/').catch(e => console.log(e.message, e.cause.code, e.cause.message))",
				"fetch failed EACCES Failed to connect to evil.test port " + s.port + " after 0 ms: blocked by the sandbox's network policy: host not in allow list\n"},
			{"require('http').get('" + api + "/hello', res => { let b = ''; res.setEncoding('utf8'); res.on('data', c => b += c); res.on('end', () => console.log(res.statusCode, JSON.stringify(b))) })",
				"200 \"hello GET api.test:" + s.port + "\\n\"\n"},
			{"require('https').get('" + sec + "/missing', res => console.log(res.statusCode, res.headers['content-type']))", "404 text/plain; charset=utf-8\n"},
			{"const r = require('http').request({hostname: 'api.test', port: " + s.port + ", path: '/echo', method: 'PUT'}, res => res.on('data', d => process.stdout.write(d))); r.write('x=1'); r.end()",
				"PUT /echo ct= ua= body=x=1\n"},
			{"require('http').get('http://evil.test:" + s.port + "/').on('error', e => console.log(e.code))", "EACCES\n"},
		}
	})
}

func TestNetworkByteLimit(t *testing.T) {
	t.Parallel()
	s := startServers(t)
	p := newProvider(t, nil, wasm.Options{
		NetworkBytes: 64 << 10,
		TestNetwork:  &wasm.TestNetwork{Resolve: testResolve, AllowLoopback: true, RootCAs: s.pool},
	})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{Network: sandbox.AllowDomains("api.test")})
	res := run(t, sb, "curl -sS -o big.bin http://api.test:"+s.port+"/big; echo \"exit $?\"; wc -c < big.bin", sandbox.RunCommandOptions{})
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	require.Len(t, lines, 2, res.Stdout+res.Stderr)
	assert.NotEqual(t, "exit 0", lines[0], "a download past the command's byte limit fails")
	assert.Less(t, atoi(strings.TrimSpace(lines[1])), 64<<10+1, "no more than the limit came in")
	// The limit is per command: the next one has its own.
	res = run(t, sb, "curl -sS http://api.test:"+s.port+"/hello", sandbox.RunCommandOptions{})
	assert.Equal(t, "hello GET api.test:"+s.port+"\n", res.Stdout, res.Stderr)
}

// requests and its urllib3 (pure Python, here the copies the host's pip
// vendors) work unchanged over the sandbox's socket and ssl modules.
func TestNetworkRequests(t *testing.T) {
	if testing.Short() {
		t.Skip("importing requests in the sandbox's CPython takes about a minute")
	}
	t.Parallel()
	out, err := exec.Command("python3", "-c", "import pip, os; print(os.path.dirname(pip.__file__))").Output()
	if err != nil {
		t.Skip("no host python3 with pip to take requests and urllib3 from")
	}
	pipDir := strings.TrimSpace(string(out))
	s := startServers(t)
	p := netProvider(t, s, true)
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{Network: sandbox.AllowDomains("api.test", "secure.test")})
	ctx := context.Background()
	n := 0
	for _, sub := range []string{"__init__.py", "_vendor/__init__.py", "_vendor/requests", "_vendor/urllib3", "_vendor/idna", "_vendor/certifi", "_vendor/chardet", "_vendor/six.py"} {
		root := filepath.Join(pipDir, sub)
		require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".py") && !strings.HasSuffix(path, ".pem") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(pipDir, path)
			n++
			return sb.FileSystem().WriteFile(ctx, "vend/pip/"+filepath.ToSlash(rel), data)
		}))
	}
	require.Greater(t, n, 50)
	code := "import sys\nsys.path.insert(0, 'vend')\nfrom pip._vendor import requests\n" +
		"r = requests.get('http://api.test:" + s.port + "/hello')\nprint(r.status_code, r.text, end='')\n" +
		"r = requests.post('https://secure.test:" + s.tlsPort + "/echo', data={'a': 'b'})\nprint(r.status_code, r.text, end='')\n" +
		"try:\n    requests.get('http://evil.test:" + s.port + "/')\nexcept requests.ConnectionError as e:\n    print('refused:', 'host not in allow list' in str(e))\n"
	// Importing requests compiles some 80 modules from source in the
	// sandbox's CPython (an -O0 build): about a minute.
	res := run(t, sb, `python3 -c "$SRC"`, sandbox.RunCommandOptions{Env: map[string]string{"SRC": code}, Timeout: 4 * time.Minute})
	assert.Equal(t, 0, res.ExitCode, res.Stderr)
	assert.Equal(t, "200 hello GET api.test:"+s.port+"\n"+
		"200 POST /echo ct=application/x-www-form-urlencoded ua=python-requests/2.31.0 body=a=b\n"+
		"refused: True\n", res.Stdout, res.Stderr)
}
