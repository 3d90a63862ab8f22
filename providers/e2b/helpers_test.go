package e2b_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/e2b/e2btest"
)

// rpc makes a raw unary Connect call to a sandbox's envd on srv and returns
// the answer's body, checking its status.
func rpc(t *testing.T, srv *e2btest.Server, id, procedure, body string, wantStatus int) []byte {
	t.Helper()
	token, _ := srv.AccessToken(id)
	req, err := http.NewRequest(http.MethodPost, srv.URL()+procedure, bytes.NewReader([]byte(body)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Connect-Protocol-Version", "1")
	req.Header.Set("E2b-Sandbox-Id", id)
	req.Header.Set("E2b-Sandbox-Port", "49983")
	req.Header.Set("X-Access-Token", token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, wantStatus, resp.StatusCode, "%s: %s", procedure, b)
	return b
}

// listProcesses returns the JSON list of running processes.
func listProcesses(t *testing.T, srv *e2btest.Server, id string) string {
	t.Helper()
	var out struct {
		Processes json.RawMessage `json:"processes"`
	}
	require.NoError(t, json.Unmarshal(rpc(t, srv, id, "/process.Process/List", `{}`, http.StatusOK), &out))
	return string(out.Processes)
}

// waitForProcess waits until one process runs in the sandbox and returns
// its pid.
func waitForProcess(t *testing.T, srv *e2btest.Server, id string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var out struct {
			Processes []struct {
				Pid uint32 `json:"pid"`
			} `json:"processes"`
		}
		require.NoError(t, json.Unmarshal(rpc(t, srv, id, "/process.Process/List", `{}`, http.StatusOK), &out))
		if len(out.Processes) > 0 {
			return strconv.FormatUint(uint64(out.Processes[0].Pid), 10)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("no process started")
	return ""
}
