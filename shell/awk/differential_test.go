package awk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// referenceAwk finds a real awk on this machine: gawk first, then mawk,
// then awk. isGawk tells whether it is GNU awk.
func referenceAwk() (path string, isGawk bool) {
	for _, name := range []string{"gawk", "mawk", "awk"} {
		p, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		out, _ := exec.Command(p, "--version").CombinedOutput()
		return p, strings.Contains(string(out), "GNU Awk")
	}
	return "", false
}

// TestDifferential runs the table against a real awk and compares standard
// output and exit status. It skips when no awk is installed.
func TestDifferential(t *testing.T) {
	ref, isGawk := referenceAwk()
	if ref == "" {
		t.Skip("no awk installed (gawk, mawk or awk)")
	}
	pass, fail, skipped := 0, 0, 0
	var failures []string
	for _, c := range allCases() {
		if c.ref == refSkip || (c.ref == refGawk && !isGawk) {
			skipped++
			continue
		}
		dir := t.TempDir()
		for name, content := range c.files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var args []string
		if c.fs != "" {
			args = append(args, "-F", c.fs)
		}
		names := make([]string, 0, len(c.vars))
		for k := range c.vars {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			args = append(args, "-v", k+"="+c.vars[k])
		}
		args = append(args, "--", c.prog)
		args = append(args, c.args...)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, ref, args...)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(c.in)
		cmd.Env = []string{"HOME=/home/agent", "AWKTEST=42", "LC_ALL=C", "PATH=" + os.Getenv("PATH")}
		var stdout, stderr bytes.Buffer
		cmd.Stdout = &stdout
		cmd.Stderr = &stderr
		err := cmd.Run()
		cancel()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		got, _, ourCode, _ := runCase(t, c)
		refOut := stdout.String()
		if c.sorted {
			got, refOut = sortLines(got), sortLines(refOut)
		}
		if got == refOut && ourCode == code {
			pass++
			continue
		}
		fail++
		failures = append(failures, fmt.Sprintf("%s: program %q\n  ours (exit %d): %q\n  %s (exit %d): %q %s",
			c.name, c.prog, ourCode, got, filepath.Base(ref), code, refOut, strings.TrimSpace(stderr.String())))
	}
	for _, f := range failures {
		t.Error(f)
	}
	summary := fmt.Sprintf("differential against %s: %d passed, %d failed, %d skipped (gawk-only or implementation-defined)", ref, pass, fail, skipped)
	t.Log(summary)
	fmt.Println(summary)
}
