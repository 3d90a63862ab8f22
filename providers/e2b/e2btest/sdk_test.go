package e2btest_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/e2b/e2btest"
	localsandbox "github.com/agentenkit/agentenkit/providers/local"
)

// DefaultSDKRoot is where .ci/run installs E2B's JavaScript SDK, one folder
// per version (<root>/<version>/node_modules/e2b).
const DefaultSDKRoot = "/tmp/agentenkit-e2b-sdk"

// sdkDirs returns the folders holding an installed SDK: those listed in
// AGENTENKIT_E2B_SDKS (separated by the OS's list separator), else every
// version under DefaultSDKRoot.
func sdkDirs() []string {
	var dirs []string
	if v := os.Getenv("AGENTENKIT_E2B_SDKS"); v != "" {
		dirs = filepath.SplitList(v)
	} else {
		dirs, _ = filepath.Glob(filepath.Join(DefaultSDKRoot, "*"))
	}
	var out []string
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "node_modules", "e2b", "package.json")); err == nil {
			out = append(out, d)
		}
	}
	return out
}

// sdkResult is one line of testdata/sdkcheck.cjs.
type sdkResult struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// sdkChecks are the checks sdkcheck.cjs makes: each must be reported, and
// pass.
var sdkChecks = []string{
	"create", "run: output and exit 0", "run: streaming", "run: non-zero exit", "run: timeout",
	"run: envs", "run: cwd", "run: default user and home", "run: as root",
	"run: background, list, connect, kill", "run: background wait",
	"files: write and read text", "files: bytes", "files: list", "files: makeDir", "files: exists",
	"files: getInfo", "files: rename", "files: remove", "files: missing path",
	"getHost", "isRunning", "getInfo", "setTimeout", "connect", "list", "list: paging",
	"getMetrics", "pause and resume",
	"unimplemented: watchDir", "unimplemented: stdin", "unimplemented: pty",
	"kill", "expiry",
}

// TestE2BSDK is the conformance test of the server: E2B's own JavaScript
// SDK, unmodified, pointed at it with its documented environment
// (E2B_API_URL, E2B_SANDBOX_URL, E2B_API_KEY, E2B_DOMAIN), drives every call
// the e2b adapter relies on. It runs once per installed SDK version (see
// sdkDirs; .ci/run installs them); without node or an SDK it skips, or
// fails where AGENTENKIT_REQUIRE names e2b-sdk.
func TestE2BSDK(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Missing(t, "e2b-sdk", "node is not installed")
	}
	dirs := sdkDirs()
	if len(dirs) == 0 {
		testenv.Missing(t, "e2b-sdk", "no E2B JavaScript SDK installed: npm install --prefix "+DefaultSDKRoot+"/<version> e2b@<version> (as .ci/run does), or list SDK folders in AGENTENKIT_E2B_SDKS")
	}
	script, err := filepath.Abs("testdata/sdkcheck.cjs")
	require.NoError(t, err)
	for _, dir := range dirs {
		var pkg struct{ Version string }
		b, err := os.ReadFile(filepath.Join(dir, "node_modules", "e2b", "package.json"))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &pkg))
		t.Run("e2b@"+pkg.Version, func(t *testing.T) {
			t.Parallel()
			back := localsandbox.New(localsandbox.Options{Root: t.TempDir()})
			require.NoError(t, back.Err())
			srv := e2btest.New(e2btest.Options{Backend: back, APIKey: sdkKey})
			t.Cleanup(srv.Close)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, script)
			cmd.Env = append(os.Environ(),
				"E2B_SDK_DIR="+dir,
				"E2B_API_URL="+srv.URL(),
				"E2B_SANDBOX_URL="+srv.URL(),
				"E2B_API_KEY="+sdkKey,
				"E2B_DOMAIN=e2btest.localhost",
				"E2B_DEBUG=false",
			)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			require.NoError(t, err, "sdkcheck: %s\n%s", out, stderr.String())
			got := map[string]sdkResult{}
			sc := bufio.NewScanner(bytes.NewReader(out))
			for sc.Scan() {
				var r sdkResult
				require.NoError(t, json.Unmarshal(sc.Bytes(), &r), "a line of sdkcheck: %s", sc.Text())
				got[r.Name] = r
			}
			for _, name := range sdkChecks {
				r, ok := got[name]
				if assert.True(t, ok, "check %q was not reported", name) {
					assert.True(t, r.OK, "%s: %s", name, r.Detail)
				}
				delete(got, name)
			}
			for name, r := range got {
				t.Errorf("check %q is not listed in sdkChecks (ok=%v: %s)", name, r.OK, r.Detail)
			}
			if t.Failed() {
				t.Logf("stderr of sdkcheck:\n%s", strings.TrimSpace(stderr.String()))
			}
		})
	}
}

// sdkKey has the form the SDK checks locally (e2b_ and hex digits).
const sdkKey = "e2b_0123456789abcdef"
