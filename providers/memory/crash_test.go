package memory_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/sandbox"
)

// Inputs that once ended the host process (a panic in a goroutine of the
// shell's former interpreter) now run as bash runs them (stdout, stderr
// and status as bash 5.2 prints them), and the script goes on.
func TestNoInputEndsTheProcess(t *testing.T) {
	sb := memory.NewSandbox(memory.Options{})
	for _, tc := range []struct{ cmd, stdout, stderr string }{
		{"shift -1 & wait; echo after", "after\n", "bash: line 1: shift: -1: shift count out of range\n"},
		{"((a[k]=1)) & wait; echo after", "after\n", ""},
		{"((a[k]=1)) | cat; echo after", "after\n", ""},
		{"( ((a[k]=1)) & wait ) | cat; echo after", "after\n", ""},
	} {
		res, err := sb.RunCommand(context.Background(), tc.cmd, sandbox.RunCommandOptions{Timeout: 10 * time.Second})
		if err != nil {
			t.Fatalf("%q: %v", tc.cmd, err)
		}
		if res.Stdout != tc.stdout || res.ExitCode != 0 || res.Stderr != tc.stderr {
			t.Errorf("%q: stdout %q (want %q), exit %d, stderr %q (want %q)", tc.cmd, res.Stdout, tc.stdout, res.ExitCode, res.Stderr, tc.stderr)
		}
	}
}

// A Destroy at any moment of a command's start stops it with ErrGone.
func TestDestroyRacesCommandStart(t *testing.T) {
	p := memory.New(memory.Options{})
	for i := range 200 {
		sb, err := p.Create(context.Background(), sandbox.CreateSandboxOptions{})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := sb.RunCommand(context.Background(), "sleep 60", sandbox.RunCommandOptions{})
			done <- err
		}()
		time.Sleep(time.Duration(i%20) * 50 * time.Microsecond)
		if err := sb.Destroy(context.Background()); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			if !errorsIsGone(err) {
				t.Fatalf("round %d: RunCommand after Destroy: %v, want ErrGone", i, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("round %d: Destroy did not stop the command", i)
		}
	}
}

func errorsIsGone(err error) bool { return errors.Is(err, sandbox.ErrGone) }
