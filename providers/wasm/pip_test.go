package wasm_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/sandbox"
)

// testWheel builds a wheel of one package: name/__init__.py with code,
// METADATA with requires.
func testWheel(t *testing.T, name, version, tag, code string, requires ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	di := name + "-" + version + ".dist-info/"
	meta := "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\nSummary: the test package " + name + "\n"
	for _, r := range requires {
		meta += "Requires-Dist: " + r + "\n"
	}
	for _, f := range []struct{ name, data string }{
		{name + "/__init__.py", code},
		{di + "METADATA", meta + "\n"},
		{di + "WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: " + tag + "\n"},
		{di + "RECORD", name + "/__init__.py,,\n" + di + "METADATA,,\n" + di + "WHEEL,,\n" + di + "RECORD,,\n"},
	} {
		w, err := zw.Create(f.name)
		require.NoError(t, err)
		_, err = w.Write([]byte(f.data))
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return b.Bytes()
}

// testIndex is a PEP 503 simple index of wheels built by the test.
type testIndex struct {
	files map[string]map[string][]byte // project -> file name -> bytes
	bad   map[string]bool              // files listed with a wrong hash
}

func (ix *testIndex) add(project, file string, data []byte) {
	if ix.files[project] == nil {
		ix.files[project] = map[string][]byte{}
	}
	ix.files[project][file] = data
}

func (ix *testIndex) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case len(parts) == 2 && parts[0] == "simple":
		files := ix.files[parts[1]]
		if files == nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!DOCTYPE html><html><body>\n")
		for name, data := range files {
			sum := sha256.Sum256(data)
			h := hex.EncodeToString(sum[:])
			if ix.bad[name] {
				h = strings.Repeat("0", 64)
			}
			fmt.Fprintf(w, "<a href=\"/files/%s/%s#sha256=%s\" data-requires-python=\"&gt;=3.8\">%s</a><br/>\n", parts[1], name, h, name)
		}
		fmt.Fprint(w, "</body></html>\n")
	case len(parts) == 3 && parts[0] == "files":
		data, ok := ix.files[parts[1]][parts[2]]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	default:
		http.NotFound(w, r)
	}
}

func TestPip(t *testing.T) {
	t.Parallel()
	ix := &testIndex{files: map[string]map[string][]byte{}, bad: map[string]bool{"badhash-1.0-py3-none-any.whl": true}}
	top := testWheel(t, "toppkg", "1.0", "py3-none-any",
		"from midpkg import mid\ndef hello():\n    return 'top+' + mid()\n",
		"midpkg>=1.0", "winonly; sys_platform == 'win32'", "fancything; extra == 'fancy'")
	ix.add("toppkg", "toppkg-1.0-py3-none-any.whl", top)
	ix.add("midpkg", "midpkg-1.0-py2.py3-none-any.whl", testWheel(t, "midpkg", "1.0", "py2.py3-none-any", "def mid():\n    return 'mid1.0'\n", "leafpkg"))
	mid := testWheel(t, "midpkg", "1.1", "py2.py3-none-any",
		"from leafpkg import leaf\ndef mid():\n    return 'mid+' + leaf()\n", "leafpkg (<3)", "colorama; python_version < '3.0'")
	ix.add("midpkg", "midpkg-1.1-py2.py3-none-any.whl", mid)
	leaf := testWheel(t, "leafpkg", "2.0", "py3-none-any", "def leaf():\n    return 'leaf2'\n")
	ix.add("leafpkg", "leafpkg-2.0-py3-none-any.whl", leaf)
	ix.add("leafpkg", "leafpkg-3.0-py3-none-any.whl", testWheel(t, "leafpkg", "3.0", "py3-none-any", "def leaf():\n    return 'leaf3'\n"))
	ix.add("nativepkg", "nativepkg-1.0-cp312-cp312-manylinux_2_17_x86_64.whl", []byte("not for wasm"))
	ix.add("nativepkg", "nativepkg-1.0.tar.gz", []byte("sources"))
	ix.add("badhash", "badhash-1.0-py3-none-any.whl", testWheel(t, "badhash", "1.0", "py3-none-any", ""))
	srv := httptest.NewServer(ix)
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())

	store := memkv.New(memkv.Options{})
	opts := wasm.Options{TestNetwork: &wasm.TestNetwork{Resolve: map[string]string{"pypi.test": "127.0.0.1"}, AllowLoopback: true}}
	p := newProvider(t, store, opts)
	site := "/home/user/.local/lib/python" + pythonMinor(t) + "/site-packages" // the python image's user site
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{
		Network: sandbox.AllowDomains("pypi.test"),
		Envs:    map[string]string{"PIP_INDEX_URL": "http://pypi.test:" + port + "/simple/"},
	})
	res := run(t, sb, "python3 -c 'print(1)'; pip install toppkg", sandbox.RunCommandOptions{})
	require.Equal(t, 0, res.ExitCode, res.Stdout+res.Stderr)
	// The markers for win32, Python 2 and an extra not asked for leave
	// their requirements out.
	assert.Equal(t, "1\nCollecting toppkg\n"+
		fmt.Sprintf("  Downloading toppkg-1.0-py3-none-any.whl (%d bytes)\n", len(top))+
		"Collecting midpkg>=1.0 (from toppkg)\n"+
		fmt.Sprintf("  Downloading midpkg-1.1-py2.py3-none-any.whl (%d bytes)\n", len(mid))+
		"Collecting leafpkg<3 (from midpkg)\n"+
		fmt.Sprintf("  Downloading leafpkg-2.0-py3-none-any.whl (%d bytes)\n", len(leaf))+
		"Installing collected packages: leafpkg, midpkg, toppkg\n"+
		"Successfully installed leafpkg-2.0 midpkg-1.1 toppkg-1.0\n", res.Stdout)

	// A prestarted CPython (the one above started it) imports them too.
	res = run(t, sb, "python3 -c 'import toppkg; print(toppkg.hello())'", sandbox.RunCommandOptions{})
	assert.Equal(t, "top+mid+leaf2\n", res.Stdout, res.Stderr)
	res = run(t, sb, "pip list && pip freeze && python3 -m pip show toppkg", sandbox.RunCommandOptions{})
	assert.Equal(t, "Package Version\n------- -------\nleafpkg 2.0\nmidpkg  1.1\ntoppkg  1.0\n"+
		"leafpkg==2.0\nmidpkg==1.1\ntoppkg==1.0\n"+
		"Name: toppkg\nVersion: 1.0\nSummary: the test package toppkg\nHome-page: \nAuthor: \nAuthor-email: \nLicense: \n"+
		"Location: "+site+"\nRequires: midpkg\nRequired-by: \n", res.Stdout, res.Stderr)

	// Another process (a provider on the same kv) finds them.
	other := newProvider(t, store, opts)
	sb2, err := other.Connect(context.Background(), sb.ID())
	require.NoError(t, err)
	res = run(t, sb2, "python3 -c 'import toppkg; print(toppkg.hello())'", sandbox.RunCommandOptions{})
	assert.Equal(t, "top+mid+leaf2\n", res.Stdout, res.Stderr)

	for _, tc := range []struct {
		cmd, out, errHas string
		code             int
	}{
		{cmd: "pip install toppkg", out: "Requirement already satisfied: toppkg in " + site + " (1.0)\n"},
		{cmd: "pip --version; bash -c 'python3 -m pip -V'", out: strings.Repeat("pip 24.0 from "+site+"/pip (python "+pythonMinor(t)+")\n", 2)},
		{cmd: "echo 'midpkg==1.0  # pinned' > req.txt && pip install -q -r req.txt && pip freeze | grep midpkg", out: "midpkg==1.0\n"},
		{cmd: "python3 -m pip install --upgrade midpkg | tail -1", out: "Successfully installed midpkg-1.1\n"},
		{cmd: "pip uninstall -y leafpkg && python3 -c 'import leafpkg' 2>&1 | tail -1", out: "Found existing installation: leafpkg 2.0\nUninstalling leafpkg-2.0:\n  Successfully uninstalled leafpkg-2.0\nModuleNotFoundError: No module named 'leafpkg'\n"},
		{cmd: "pip install nativepkg", code: 1, errHas: "The docker and e2b adapters run the real pip"},
		{cmd: "pip install nosuchpkg", code: 1, errHas: "ERROR: Could not find a version that satisfies the requirement nosuchpkg (from versions: none)\nERROR: No matching distribution found for nosuchpkg\n"},
		{cmd: "pip install 'leafpkg==9'", code: 1, errHas: "(from versions: 2.0, 3.0)"},
		{cmd: "pip install badhash", code: 1, errHas: "DO NOT MATCH THE HASHES"},
		{cmd: "pip install -q 'leafpkg>2' && python3 -c 'import leafpkg; print(leafpkg.leaf())'", out: "leaf3\n"},
	} {
		res := run(t, sb, tc.cmd, sandbox.RunCommandOptions{})
		assert.Equal(t, tc.code, res.ExitCode, "%s: %s%s", tc.cmd, res.Stdout, res.Stderr)
		if tc.out != "" {
			assert.Equal(t, tc.out, res.Stdout, tc.cmd)
		}
		if tc.errHas != "" {
			assert.Contains(t, res.Stderr, tc.errHas, tc.cmd)
		}
	}
}
