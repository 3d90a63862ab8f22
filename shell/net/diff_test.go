package net

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	gonet "net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/shell/command"
)

// The differential tests run the real curl and wget and this package's, with
// the same arguments, against the same server on 127.0.0.1, and compare what
// each prints and its exit status. This package's commands dial the server
// directly (testDialer), not through a sandbox's host.

func TestMain(m *testing.M) {
	testDialer = func(ctx context.Context, host string, port int, tls_ bool) (Conn, error) {
		var d gonet.Dialer
		addr := gonet.JoinHostPort(host, fmt.Sprint(port))
		if host != "127.0.0.1" && host != "localhost" {
			return nil, &Error{CodeResolve, "Could not resolve host: " + host}
		}
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return nil, &Error{CodeConnect, fmt.Sprintf("Failed to connect to %s port %d after 0 ms: Couldn't connect to server", host, port)}
		}
		if tls_ {
			tc := tls.Client(c, &tls.Config{ServerName: host})
			if err := tc.HandshakeContext(ctx); err != nil {
				c.Close()
				return nil, &Error{CodeCert, "SSL certificate problem: unable to get local issuer certificate"}
			}
			return tc, nil
		}
		return c, nil
	}
	os.Exit(m.Run())
}

func diffServer(t *testing.T) string {
	mux := http.NewServeMux()
	mux.HandleFunc("/hello", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Date", "Thu, 01 Jan 2026 00:00:00 GMT")
		fmt.Fprintln(w, "hello")
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", "Thu, 01 Jan 2026 00:00:00 GMT")
		b, _ := io.ReadAll(r.Body)
		var hs []string
		for k, v := range r.Header {
			if k != "Content-Type" || !strings.HasPrefix(v[0], "multipart/") {
				hs = append(hs, k+"="+strings.Join(v, ","))
			}
		}
		sortStrings(hs)
		body := string(b)
		if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
			if err := r.ParseMultipartForm(1 << 20); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			body = fmt.Sprint(r.MultipartForm.Value)
			for k, fs := range r.MultipartForm.File {
				f, _ := fs[0].Open()
				data, _ := io.ReadAll(f)
				body += fmt.Sprintf(" %s:%s:%s:%s", k, fs[0].Filename, fs[0].Header.Get("Content-Type"), data)
			}
		}
		fmt.Fprintf(w, "%s %s %s\n%s\n", r.Method, r.URL.RequestURI(), body, strings.Join(hs, "\n"))
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", "Thu, 01 Jan 2026 00:00:00 GMT")
		http.NotFound(w, r)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", "Thu, 01 Jan 2026 00:00:00 GMT")
		http.Redirect(w, r, "/hello", http.StatusFound)
	})
	mux.HandleFunc("/see-other", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", "Thu, 01 Jan 2026 00:00:00 GMT")
		http.Redirect(w, r, "/echo", http.StatusSeeOther)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", "Thu, 01 Jan 2026 00:00:00 GMT")
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/error", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", "Thu, 01 Jan 2026 00:00:00 GMT")
		http.Error(w, "boom", http.StatusInternalServerError)
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s.URL
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// ours runs one of this package's commands over a copy of the files in dir.
func ours(t *testing.T, name string, args []string, files map[string]string) (string, string, int, afero.Fs) {
	fsys := afero.NewMemMapFs()
	_ = fsys.MkdirAll("/work", 0o755)
	_ = fsys.MkdirAll("/dev", 0o755) // /dev/null: a plain file here, the shell's device in a sandbox
	for n, data := range files {
		_ = afero.WriteFile(fsys, "/work/"+n, []byte(data), 0o644)
	}
	var out, errb bytes.Buffer
	f, _ := command.Lookup(name)
	c := &command.Call{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: "/work", FS: fsys,
		Env: func(string) (string, bool) { return "", false }, Environ: func() []string { return nil }}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := f(ctx, c, append([]string{name}, args...))
	return out.String(), errb.String(), command.ExitCode(err), fsys
}

// theirs runs the real command in a temporary folder holding files.
func theirs(t *testing.T, name string, args []string, files map[string]string) (string, string, int, string) {
	dir := t.TempDir()
	for n, data := range files {
		_ = os.WriteFile(filepath.Join(dir, n), []byte(data), 0o644)
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LANG=C.UTF-8"}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code, dir
}

func need(t *testing.T, name string) {
	if _, err := exec.LookPath(name); err != nil {
		testenv.Missing(t, name, name+" is not installed (apt-get install "+name+")")
	}
}

func TestCurlLikeCurl(t *testing.T) {
	need(t, "curl")
	base := diffServer(t)
	files := map[string]string{"data.txt": "a=1\nb=2\n", "up.txt": "file body\n"}
	cases := []diffCase{
		{args: []string{"-s", base + "/hello"}},
		{args: []string{"-sS", base + "/missing"}, sameStderr: true},
		{args: []string{"-sSf", base + "/missing"}, sameStderr: true},
		{args: []string{"-s", "--fail-with-body", base + "/missing"}},
		{args: []string{"-si", base + "/hello"}},
		{args: []string{"-sI", base + "/hello"}},
		{args: []string{"-s", "-o", "/dev/null", "-w", "%{http_code}\\n", base + "/missing"}},
		{args: []string{"-s", "-w", "%{http_code} %{size_download} %{content_type} %{num_redirects} %{url_effective} %{method}\\n", "-L", base + "/redirect"}},
		{args: []string{"-s", base + "/redirect"}},
		{args: []string{"-sL", "-i", base + "/redirect"}},
		{args: []string{"-sSL", "--max-redirs", "3", base + "/loop"}, sameStderr: true},
		{args: []string{"-s", "-d", "x=1", "-d", "y=2", base + "/echo"}},
		{args: []string{"-s", "-d", "@data.txt", base + "/echo"}},
		{args: []string{"-s", "--data-binary", "@data.txt", base + "/echo"}},
		{args: []string{"-s", "--data-urlencode", "q=a b&c", base + "/echo"}},
		{args: []string{"-s", "-G", "-d", "q=1", base + "/echo"}},
		{args: []string{"-s", "-X", "PUT", "-H", "Content-Type: application/json", "-d", `{"a":1}`, base + "/echo"}},
		{args: []string{"-s", "-X", "DELETE", base + "/echo"}},
		{args: []string{"-s", "-H", "X-Custom: yes", "-H", "Accept:", "-A", "agent/1", base + "/echo"}},
		{args: []string{"-s", "-u", "user:pw", base + "/echo"}},
		{args: []string{"-sL", "-d", "x=1", base + "/see-other"}},
		{args: []string{"-s", "-F", "name=value", "-F", "file=@up.txt", base + "/echo"}},
		{args: []string{"-s", "--json", `{"k":2}`, base + "/echo"}},
		{args: []string{"-s", "-o", "out.txt", base + "/hello"}, outFile: "out.txt"},
		{args: []string{"-s", "-O", base + "/hello"}, outFile: "hello"},
		{args: []string{"-sS", "http://127.0.0.1:1/"}, sameStderr: true},
		{args: []string{"-sS", "-o", "nodir/x", base + "/hello"}, sameStderr: true},
		{args: []string{"-sS", "--retry", "1", "--retry-delay", "0", base + "/hello"}, sameStderr: true},
		{args: []string{"--bogus"}, sameStderr: true},
		{args: []string{}, sameStderr: true},
		{args: []string{"-s", "-w", "%{bogus}|%{http_code}", base + "/hello"}, sameStderr: true},
	}
	diffCommand(t, "curl", cases, files)
}

// diffCase is one command line run by both the real command and ours.
type diffCase struct {
	args       []string
	sameStderr bool   // compare stderr too (where it has no times or sizes)
	outFile    string // compare this file it writes too
}

// diffCommand runs each case with the real name and with ours and compares
// their output, status and files.
func diffCommand(t *testing.T, name string, cases []diffCase, files map[string]string) {
	for _, tc := range cases {
		line := name + " " + strings.Join(tc.args, " ")
		wantOut, wantErr, wantCode, dir := theirs(t, name, tc.args, files)
		gotOut, gotErr, gotCode, fsys := ours(t, name, tc.args, files)
		if gotCode != wantCode || gotOut != wantOut {
			t.Errorf("%s:\n got  %d %q\n want %d %q", line, gotCode, gotOut, wantCode, wantOut)
		}
		if tc.sameStderr && gotErr != wantErr {
			t.Errorf("%s: stderr\n got  %q\n want %q", line, gotErr, wantErr)
		}
		if tc.outFile != "" {
			want, _ := os.ReadFile(filepath.Join(dir, tc.outFile))
			got, _ := afero.ReadFile(fsys, "/work/"+tc.outFile)
			if string(got) != string(want) {
				t.Errorf("%s: %s\n got  %q\n want %q", line, tc.outFile, got, want)
			}
		}
	}
}

func TestWgetLikeWget(t *testing.T) {
	need(t, "wget")
	base := diffServer(t)
	diffCommand(t, "wget", []diffCase{
		{args: []string{"-q", "-O", "-", base + "/hello"}},
		{args: []string{"-qO-", base + "/hello"}},
		{args: []string{"-q", "-O", "-", base + "/missing"}, sameStderr: true},
		{args: []string{"-q", "-O", "-", base + "/redirect"}},
		{args: []string{"-q", "-O", "-", "--post-data", "a=1", base + "/echo"}},
		{args: []string{"-q", "-O", "-", "--header", "X-A: b", base + "/echo"}},
		{args: []string{"-q", base + "/hello"}, outFile: "hello"},
		{args: []string{"-q", "-O", "got.txt", base + "/hello"}, outFile: "got.txt"},
		{args: []string{"-q", "http://127.0.0.1:1/"}, sameStderr: true},
		{args: []string{}, sameStderr: true},
		{args: []string{"--bogus"}, sameStderr: true},
	}, nil)
}
