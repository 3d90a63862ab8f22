package bash

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// A command substitution that never ends on its own ends at the command's
// deadline (FuzzRunCommand found `x=$( yes X ) & wait` taking 5 s past a
// 200 ms limit while its buffer grew), and one that prints more than
// maxSubstBytes keeps that much and gets a write error instead of growing
// until the host runs out of memory.
func TestCmdSubstEndsAndIsCapped(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	var out, errb strings.Builder
	_, err := Run(ctx, `x=$(while :; do echo XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX; done) & wait; echo done`, Options{
		FS: afero.NewMemMapFs(), Dir: "/", Stdout: &out, Stderr: &errb, Exec: testExec,
	})
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("an endless substitution in a job took %v with a 300ms deadline (err %v)", took, err)
	}

	stdout, stderr, code := runScript(t, `x=$(printf '%*s' 300000000 ''); echo ${#x} $?`)
	if code != 0 || stdout != "268435456 1\n" || !strings.Contains(stderr, "printf: write error") {
		t.Fatalf("capped substitution: stdout %q, status %d, stderr %q", stdout, code, stderr)
	}
}
