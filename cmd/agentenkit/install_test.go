//go:build installtest

// The install test (make install-test): the CLI as a user gets it, with
// go install from a module proxy, on a machine with nothing of agentenkit.
// It is build-tagged so that make test does not run it: it builds the whole
// module from an empty build cache, and the images from nothing.

package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// installVersion is the version the test serves the checkout as.
const installVersion = "v0.0.1-installtest"

// TestInstall packs the checkout (its tracked and untracked, not ignored,
// files) as version installVersion of the module into a file GOPROXY, ahead
// of the proxies go uses here (for the dependencies), runs go install
// .../cmd/agentenkit@installVersion with a fresh HOME, GOPATH, GOCACHE and
// state folder, and runs the installed binary from an empty folder: the
// wasm sandbox's images are fetched and built from nothing.
func TestInstall(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	packModule(t, root, proxy)

	goEnv := func(name string) string {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		return strings.TrimSpace(string(out))
	}
	// The dependencies: from this machine's module cache (as a file proxy)
	// where they are there, else from the proxies go uses here. A proxy
	// that answers "not found" passes the request to the next in the list.
	proxies := "file://" + proxy + ",file://" + filepath.Join(goEnv("GOMODCACHE"), "cache", "download")
	if p := goEnv("GOPROXY"); p != "" && p != "off" {
		proxies += "," + p
	}
	home, gopath, empty := filepath.Join(tmp, "home"), filepath.Join(tmp, "gopath"), filepath.Join(tmp, "empty")
	for _, d := range []string{home, gopath, empty} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{
		"HOME=" + home,
		"GOPATH=" + gopath,
		"GOMODCACHE=" + filepath.Join(gopath, "pkg", "mod"),
		"GOCACHE=" + filepath.Join(tmp, "gocache"),
		"GOPROXY=" + proxies,
		// The module is in no checksum database: go.sum is its own.
		"GONOSUMDB=" + modulePath,
		"GOFLAGS=-mod=mod",
		"GOTOOLCHAIN=local",
		"XDG_CACHE_HOME=", "XDG_STATE_HOME=", "XDG_CONFIG_HOME=",
		"AGENTENKIT_STATE_DIR=" + filepath.Join(tmp, "state"),
		"AGENTENKIT_IMAGES=", "AGENTENKIT_PROVIDER=",
	}
	run := func(timeout time.Duration, name string, args ...string) (string, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = empty
		cmd.Env = append(os.Environ(), env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		err := cmd.Run()
		t.Logf("%s %s: %v in %s\nstdout: %q\nstderr:\n%s", name, strings.Join(args, " "), err, time.Since(start).Round(time.Millisecond), stdout.String(), stderr.String())
		if err != nil {
			t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
		}
		return stdout.String(), stderr.String()
	}
	run(25*time.Minute, "go", "install", modulePath+"/cmd/agentenkit@"+installVersion)
	bin := filepath.Join(gopath, "bin", "agentenkit")
	// The first run starts the state folder's daemon: stop it at the end,
	// whatever happens, so that none outlives the test.
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, "daemon", "stop")
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("agentenkit daemon stop: %v\n%s", err, out)
		}
	})
	if out, _ := run(10*time.Minute, bin, "run", "--", "echo", "hi"); out != "hi\n" {
		t.Fatalf("agentenkit run -- echo hi printed %q", out)
	}
	if out, _ := run(5*time.Minute, bin, "run", "--", "python3", "-c", "print(1)"); out != "1\n" {
		t.Fatalf("agentenkit run -- python3 -c 'print(1)' printed %q", out)
	}
	// Once set up, a command says nothing more on stderr.
	if out, errOut := run(2*time.Minute, bin, "run", "--", "echo", "again"); out != "again\n" || errOut != "" {
		t.Fatalf("a second run: stdout %q, stderr %q", out, errOut)
	}
	// The runs were served by the daemon the first one started.
	if out, _ := run(time.Minute, bin, "daemon", "status"); !strings.Contains(out, "pid: ") {
		t.Fatalf("agentenkit daemon status printed %q", out)
	}
}

// packModule writes the checkout at root into a file GOPROXY at dir as
// installVersion: the list, .info, .mod and .zip files of the module.
func packModule(t *testing.T, root, dir string) {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files in %s: %v", root, err)
	}
	v := filepath.Join(dir, filepath.FromSlash(modulePath), "@v")
	if err := os.MkdirAll(v, 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	n := 0
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		fi, err := os.Lstat(filepath.Join(root, name))
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, or a link (modules have none)
		}
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(modulePath + "@" + installVersion + "/" + filepath.ToSlash(name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info, _ := json.Marshal(map[string]any{"Version": installVersion, "Time": time.Now().UTC().Format(time.RFC3339)})
	for name, data := range map[string][]byte{
		"list":                   []byte(installVersion + "\n"),
		installVersion + ".info": info,
		installVersion + ".mod":  gomod,
		installVersion + ".zip":  buf.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(v, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("packed %d files (%d bytes zipped) as %s@%s", n, buf.Len(), modulePath, installVersion)
}
