package bench

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/agentenkit/agentenkit/sandbox"
)

// DownloadName is the workload that downloads 1 MB with curl from a server
// on the host's loopback: on local it is the host's own curl (the
// reference); on wasm it goes through the host-mediated network (the
// guest's curl, the channel, the policy check, the host's dial).
const DownloadName = "1 MB download (curl, loopback)"

const downloadSize = 1 << 20

var loopback struct {
	once sync.Once
	url  string
	err  error
}

// loopbackURL starts, once per process, an HTTP server on 127.0.0.1 that
// serves downloadSize zero bytes, and returns its URL.
func loopbackURL() (string, error) {
	loopback.once.Do(func() {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			loopback.err = err
			return
		}
		body := make([]byte, downloadSize)
		go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
			w.Write(body)
		}))
		loopback.url = "http://" + ln.Addr().String() + "/1m"
	})
	return loopback.url, loopback.err
}

// errNoLoopback: the adapter's sandboxes cannot reach the host's loopback.
var errNoLoopback = errors.New("its sandboxes cannot reach a server on the host's loopback")

func downloadSetup(ctx context.Context, a Adapter, p sandbox.Provider) (sandbox.Sandbox, error) {
	if a.Name == "docker" {
		return nil, errNoLoopback // a container's 127.0.0.1 is its own
	}
	if _, err := loopbackURL(); err != nil {
		return nil, err
	}
	return p.Create(ctx, sandbox.CreateSandboxOptions{Network: sandbox.Network{Mode: sandbox.NetworkAll}})
}

func download(ctx context.Context, _ sandbox.Provider, sb sandbox.Sandbox) error {
	u, err := loopbackURL()
	if err != nil {
		return err
	}
	res, err := sb.RunCommand(ctx, "curl -sS -o /dev/null -w '%{size_download}' "+u, sandbox.RunCommandOptions{})
	if err == nil && strings.TrimSpace(res.Stdout) != fmt.Sprint(downloadSize) {
		err = fmt.Errorf("curl printed %q (stderr %q)", res.Stdout, res.Stderr)
	}
	return err
}
