package shell

import (
	"context"
	"errors"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

// textCommands are the builtins of the text_*.go files.
var textCommands = []string{
	"head", "tail", "wc", "sort", "uniq", "cut", "tr", "tee", "seq", "yes", "basename", "dirname", "cmp", "comm", "diff",
	"jq", "base64", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "nl", "rev", "tac", "fold",
	"expand", "unexpand", "paste", "column", "expr", "od", "xxd",
}

func TestTextRegistered(t *testing.T) {
	for _, name := range textCommands {
		if _, ok := command.Lookup(name); !ok {
			t.Errorf("%s is not registered", name)
		}
	}
}

// TestTextNoPanic runs every text builtin with random arguments and
// inputs: whatever they are, a builtin returns (no panic, no hang).
func TestTextNoPanic(t *testing.T) {
	pool := []string{"-", "--", "-n", "-c", "-1", "-0", "+1", "-k", "1,2", "-t", "", ":", "-d", "-f", "1-", "-5", "x", "a",
		"b", "d", "missing", "-s", "-w", "0", "3", "-r", "-u", "-z", ".", "[", "\\", "[:alpha:]", "a-z", "%", "%g", "-e",
		"999999999999999999999", "-9223372036854775808", "1e400", "nan", "(", ")", "+", "length", "-i", "-b", "-l", "-A",
		"-p", "-g", "--help", "--foo", "--arg", "-N", "-j", "-v", "\x00", "é", "\\(", "*", "-C", "-U", "1.5", "-x"}
	files := map[string]string{"a": "b\na\nc\n\x00\xff\n", "b": "1 2\n3\tx\n", "d/": "", "e": ""}
	r := rand.New(rand.NewSource(7))
	for _, name := range textCommands {
		b, _ := command.Lookup(name)
		for i := 0; i < 150; i++ {
			n := r.Intn(5)
			argv := []string{name}
			for k := 0; k < n; k++ {
				argv = append(argv, pool[r.Intn(len(pool))])
			}
			stdin := []string{"", "a\nb\n", "{\"a\":1}", "\x00\x01\xff", "x y z", "1\n10\n2"}[r.Intn(6)]
			c, _, _ := cmdtest.NewCall(t, stdin, files)
			// Endless output goes nowhere: a growing buffer would make the
			// test's memory, not the command, the slow part.
			c.Stdout = &cmdtest.CountWriter{}
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%q panicked: %v", argv, p)
					}
				}()
				if name == "yes" {
					c.Stdout = &cmdtest.LimitWriter{W: c.Stdout, N: 100}
				}
				start := time.Now()
				_ = b(ctx, c, argv)
				// Endless output (seq 1e400) is fine; ignoring the
				// context is not. The bound is the context and room for a
				// loaded 2-core machine (TestCommandsEndAtDeadline measures
				// closer).
				if time.Since(start) > 3500*time.Millisecond {
					t.Errorf("%q ran %v, past its context", argv, time.Since(start))
				}
			}()
			cancel()
		}
	}
}

// TestTextCancelled runs the builtins that read input under a context
// that has already ended: each returns the context's error.
func TestTextCancelled(t *testing.T) {
	big := strings.Repeat("some line of text 123\n", 20000)
	files := map[string]string{"big": big, "big2": big + "x\n"}
	cases := [][]string{
		{"head", "-n", "-1", "big"}, {"tail", "-n", "+2", "big"}, {"wc", "big"}, {"sort", "big"}, {"uniq", "big"},
		{"cut", "-c1", "big"}, {"tr", "a", "b"}, {"tee"}, {"seq", "1000000"}, {"yes"}, {"diff", "big", "big2"},
		{"base64", "big"}, {"md5sum", "big"}, {"nl", "big"}, {"rev", "big"}, {"tac", "big"}, {"fold", "big"},
		{"paste", "big", "big"}, {"od", "big"}, {"xxd", "big"}, {"cmp", "big", "big2"}, {"comm", "big", "big2"},
		{"expand", "big"}, {"column", "-t", "big"}, {"jq", "-R", ".", "big"},
	}
	for _, argv := range cases {
		c, _, _ := cmdtest.NewCall(t, big, files)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		b, _ := command.Lookup(argv[0])
		if err := b(ctx, c, argv); !errors.Is(err, context.Canceled) {
			t.Errorf("%q under a cancelled context returned %v", argv, err)
		}
	}
}
