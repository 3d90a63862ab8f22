package bc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/shell/command"
)

// runBC runs this package's bc with args and stdin over a filesystem
// holding files, and returns stdout, stderr and the exit status.
func runBC(t *testing.T, ctx context.Context, args []string, stdin string, env map[string]string, files map[string]string) (string, string, int, error) {
	t.Helper()
	fs := afero.NewMemMapFs()
	for name, text := range files {
		if err := afero.WriteFile(fs, "/w/"+name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	c := &command.Call{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Dir: "/w", FS: fs}
	c.SetEnv(env)
	err := bc(ctx, c, append([]string{"bc"}, args...))
	code := command.ExitCode(err)
	var st command.ExitStatus
	if err != nil && !errors.As(err, &st) {
		return out.String(), errb.String(), code, err
	}
	return out.String(), errb.String(), code, nil
}

// realBC runs GNU bc the same way in a temporary folder.
func realBC(t *testing.T, bin string, args []string, stdin string, env map[string]string, files map[string]string) (string, string, int) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(dir+"/"+name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Args[0] = "bc"
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C"}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("GNU bc: %v", err)
	}
	return out.String(), errb.String(), code
}

// gnuBC returns the path of GNU bc, or skips (fails under
// AGENTENKIT_REQUIRE=bc) when it is missing or not GNU's.
func gnuBC(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("bc")
	if err != nil {
		testenv.Missing(t, "bc", "the differential tests compare with GNU bc (apt-get install bc)")
	}
	out, _ := exec.Command(bin, "--version").Output()
	if !strings.HasPrefix(string(out), "bc 1.07") {
		testenv.Missing(t, "bc", "the host's bc is not GNU bc 1.07: "+strings.SplitN(string(out), "\n", 2)[0])
	}
	return bin
}

type bcCase struct {
	name  string
	args  []string
	in    string
	env   map[string]string
	files map[string]string
}

// TestDifferential runs each program with this bc and GNU bc: stdout,
// stderr and the exit status must match byte for byte.
func TestDifferential(t *testing.T) {
	bin := gnuBC(t)
	for _, tc := range bcCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wantOut, wantErr, wantCode := realBC(t, bin, tc.args, tc.in, tc.env, tc.files)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			out, errs, code, err := runBC(t, ctx, tc.args, tc.in, tc.env, tc.files)
			if err != nil {
				t.Fatalf("bc: %v", err)
			}
			if out != wantOut {
				t.Errorf("stdout:\n%s\nwant:\n%s", out, wantOut)
			}
			if errs != wantErr {
				t.Errorf("stderr:\n%s\nwant:\n%s", errs, wantErr)
			}
			if code != wantCode {
				t.Errorf("status %d, want %d", code, wantCode)
			}
		})
	}
}

// TestEndlessLoopEndsAtDeadline: a program that never ends returns the
// context's error once the command's deadline passes.
func TestEndlessLoopEndsAtDeadline(t *testing.T) {
	for _, prog := range []string{"while (1) { x += 1 }\n", "define f(x) { return f(x+1) }\nf(1)\n", "for (;;) { }\n", "2^2^2^2^2^2\n"} {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		start := time.Now()
		_, _, _, err := runBC(t, ctx, nil, prog, nil, nil)
		cancel()
		if time.Since(start) > 5*time.Second {
			t.Errorf("%q ran %v past its deadline", prog, time.Since(start))
		}
		if prog == "2^2^2^2^2^2\n" || prog == "define f(x) { return f(x+1) }\nf(1)\n" {
			continue // ends with a runtime error of its own
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%q: err %v, want the deadline", prog, err)
		}
	}
}

// FuzzParse: no program makes bc panic or run much past a short
// deadline.
func FuzzParse(f *testing.F) {
	for _, tc := range bcCases() {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, prog string) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		done := make(chan error, 1)
		go func() {
			_, _, _, err := runBC(t, ctx, []string{"-l"}, prog, nil, nil)
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil && !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("%q: %v", prog, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%q ran 5s past its 200ms deadline", prog)
		}
	})
}
