package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/internal/testenv"
)

// TestBuildSource: a binary built in a checkout (not -trimpath) finds that
// checkout, so a (devel) install can build its busybox image from it.
func TestBuildSource(t *testing.T) {
	dir, why := buildSource()
	if dir == "" {
		t.Fatalf("the test binary, built in the checkout, did not find it: %s", why)
	}
	if _, err := os.Stat(filepath.Join(dir, "images", "busybox")); err != nil {
		t.Errorf("%s is not the module's root: %v", dir, err)
	}
}

// TestDownloadModuleKeepsTheReason: when go mod download fails, the error
// carries go's own reason, not only "exit status 1".
func TestDownloadModuleKeepsTheReason(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		testenv.Missing(t, "go", "no go command on PATH")
	}
	tmp := t.TempDir()
	t.Chdir(tmp)
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOMODCACHE", filepath.Join(tmp, "modcache"))
	_, err := downloadModule(context.Background(), modulePath+"@v0.0.0-20000101000000-000000000000")
	if err == nil {
		t.Fatal("no error from a download that cannot happen")
	}
	if !strings.Contains(err.Error(), "GOPROXY=off") {
		t.Errorf("the error lost go's reason (module lookup disabled by GOPROXY=off): %v", err)
	}
}
