package sandboxtest

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/sandbox"
)

// The network contracts. They only ever reach a server the test starts on
// 127.0.0.1: no case sends a byte anywhere else.

// Test host names a harness with LoopbackNames resolves to 127.0.0.1.
const (
	AllowedTestHost = "allowed.test"
	DeniedTestHost  = "denied.test"
)

// loopbackServer is an HTTP server on 127.0.0.1 that counts the requests
// it got, by Host header.
type loopbackServer struct {
	*httptest.Server
	port string
	mu   sync.Mutex
	hits map[string]int
}

const loopbackToken = "agentenkit-loopback-token"

func startLoopback(e *Env) *loopbackServer {
	s := &loopbackServer{hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.Host)
		s.mu.Lock()
		s.hits[host]++
		s.mu.Unlock()
		fmt.Fprintln(w, loopbackToken)
	}))
	e.T.Cleanup(s.Close)
	_, s.port, _ = net.SplitHostPort(s.Listener.Addr().String())
	return s
}

func (s *loopbackServer) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, v := range s.hits {
		n += v
	}
	return n
}

// fetchCmd fetches url with whichever client the sandbox has.
func fetchCmd(url string) string {
	return fmt.Sprintf(`(curl -sS -m 5 %[1]s || wget -q -T 5 -O - %[1]s || python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' %[1]s) 2>&1`, url)
}

var networkCases = []Case{
	{
		Name:  "net/off-by-default",
		Rule:  "A sandbox made with the zero Network reaches nothing: not even a server on the host's loopback.",
		Needs: []Capability{CapIsolatedCommands},
		Check: func(e *Env) {
			s := startLoopback(e)
			for _, host := range []string{"127.0.0.1", "localhost"} {
				res, err := e.Sandbox.RunCommand(e.Ctx, fetchCmd("http://"+host+":"+s.port+"/"), sandbox.RunCommandOptions{})
				require.NoError(e.T, err)
				assert.NotContains(e.T, res.Stdout, loopbackToken, "a command reached the host's loopback with network none")
			}
			assert.Zero(e.T, s.total(), "the host's loopback server got a request from a sandbox with network none")
		},
	},
	{
		Name:      "net/allow-list",
		Rule:      "With an allow list, a listed host is reached and any other is refused before a byte is sent.",
		Needs:     []Capability{CapNetworkAllowList},
		NoSandbox: true,
		Check: func(e *Env) {
			if !e.Harness.LoopbackNames {
				e.T.Skip("the harness does not resolve test names to loopback (Harness.LoopbackNames)")
			}
			s := startLoopback(e)
			opts := e.Harness.Create
			opts.Network = sandbox.AllowDomains(AllowedTestHost)
			sb, err := e.Provider.Create(e.Ctx, opts)
			require.NoError(e.T, err)
			defer sb.Destroy(e.Ctx)
			res, err := sb.RunCommand(e.Ctx, fetchCmd("http://"+AllowedTestHost+":"+s.port+"/"), sandbox.RunCommandOptions{})
			require.NoError(e.T, err)
			assert.Equal(e.T, loopbackToken+"\n", res.Stdout, "the listed host: %s", res.Stderr)
			res, err = sb.RunCommand(e.Ctx, fetchCmd("http://"+DeniedTestHost+":"+s.port+"/"), sandbox.RunCommandOptions{})
			require.NoError(e.T, err)
			assert.NotContains(e.T, res.Stdout, loopbackToken)
			assert.True(e.T, strings.Contains(res.Stdout, "allow list"), "the refusal says why: %q", res.Stdout)
			s.mu.Lock()
			assert.Equal(e.T, map[string]int{AllowedTestHost: 1}, s.hits, "only the listed host was reached")
			s.mu.Unlock()
		},
	},
}
