package shell

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

// cancelCases are commands that would run for ever (endless output, endless
// input, long computation) with what makes them so.
var cancelCases = [][]string{
	{"seq", "999999999999999999999"},
	{"seq", "1e400"},
	{"seq", "-f", "%g", "1", "1e-300", "2"},
	{"seq", "-w", "-9223372036854775808", "9223372036854775807"},
	{"yes"},
	{"yes", strings.Repeat("x", 100000)},
	{"cat", "/dev/zero"},
	{"cat", "-n", "/dev/zero"},
	{"head", "-c", "1T", "/dev/zero"},
	{"head", "-n", "-1", "/dev/zero"},
	{"tail", "-c", "1", "/dev/zero"},
	{"od", "/dev/zero"},
	{"xxd", "/dev/zero"},
	{"base64", "/dev/zero"},
	{"md5sum", "/dev/zero"},
	{"sha256sum", "/dev/zero"},
	{"wc", "/dev/zero"},
	{"tr", "\\0", "a", "/dev/zero"},
	{"cut", "-c1", "/dev/zero"},
	{"fold", "/dev/zero"},
	{"rev", "/dev/zero"},
	{"tac", "/dev/zero"},
	{"sort", "/dev/zero"},
	{"uniq", "/dev/zero"},
	{"nl", "/dev/zero"},
	{"cmp", "/dev/zero", "/dev/zero"},
	{"tee", "/dev/null"},
	{"gzip", "-c", "/dev/zero"},
	{"grep", "x", "/dev/zero"},
	{"sed", "s/a/b/", "/dev/zero"},
	{"awk", "BEGIN { while (1) print 1 }"},
	{"awk", "BEGIN { while (1) x++ }"},
	{"jq", "-n", "repeat(1)"},
	{"jq", "-n", "def f: f; f"},
	{"jq", "-n", "[range(1e18)] | length"},
	{"node", "-e", "for(;;){}"},
	{"node", "-e", "for(;;) console.log(1)"},
	{"sleep", "1000"},
	{"find", "/", "-name", "x", "-o", "-exec", "yes", ";"},
	{"xargs", "yes"},
	{"timeout", "100", "yes"},
	{"env", "yes"},
	{"expand", "/dev/zero"},
	{"paste", "/dev/zero"},
}

// endlessReader is endless input ('y' lines), as a pipe gives it: 64 KiB
// each 200 µs at most, and no more than left bytes in all, so that a
// command reading all of it cannot fill the test's memory.
type endlessReader struct{ left int64 }

func (r *endlessReader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	time.Sleep(200 * time.Microsecond)
	p = p[:min(len(p), 64<<10)]
	n := min(int64(len(p)), r.left)
	for i := range p[:n] {
		p[i] = "y\n"[i%2]
	}
	r.left -= n
	return int(n), nil
}

// TestCommandsEndAtDeadline runs commands that would never end, each under
// a context of 100 ms, on endless input: each must return soon after the
// deadline (the bound leaves room for a loaded 2-core machine; a command
// that does not check its context runs on for seconds). Every registered
// command also runs with no operand and endless stdin.
func TestCommandsEndAtDeadline(t *testing.T) {
	const limit, slack = 100 * time.Millisecond, 700 * time.Millisecond
	cases := slices.Clone(cancelCases)
	for _, name := range command.Names() {
		cases = append(cases, []string{name})
	}
	for _, argv := range cases {
		b, ok := lookupBuiltin(argv[0])
		if !ok {
			t.Errorf("%s is not a command", argv[0])
			continue
		}
		t.Run(strings.Join(argv, " "), func(t *testing.T) {
			t.Parallel()
			c, _, _ := cmdtest.NewCall(t, "", map[string]string{"a": "x\n"})
			var out cmdtest.CountWriter
			c.Stdout, c.Stderr = &out, io.Discard
			c.Stdin = &endlessReader{left: 256 << 20}
			c.Exec = func(ctx context.Context, args []string) error {
				if b, ok := lookupBuiltin(args[0]); ok {
					return b(ctx, c, args)
				}
				return ErrNotFound
			}
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			defer cancel()
			start := time.Now()
			func() {
				defer func() { _ = recover() }() // TestTextNoPanic's business
				_ = b(ctx, c, argv)
			}()
			if took := time.Since(start); took > limit+slack {
				t.Errorf("%q ran %v with a context of %v (%d bytes out)", argv, took.Round(time.Millisecond), limit, out.N.Load())
			}
		})
	}
}
