package awk

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// limitWriter keeps at most n bytes and then fails, like a full pipe.
type limitWriter struct {
	buf bytes.Buffer
	n   int
}

func (w *limitWriter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > w.n {
		return 0, errors.New("output limit")
	}
	return w.buf.Write(p)
}

// FuzzAwk runs random programs on random input: Run must never panic, never
// report an internal error, and stop soon after its deadline.
func FuzzAwk(f *testing.F) {
	for _, c := range allCases() {
		f.Add(c.prog, c.in)
	}
	f.Add(`BEGIN { while (1) s = s s "x" }`, "")
	f.Add(`{ $(NF+2) = $1; NF -= 1; print; print $0 }`, "a b c\n")
	f.Add(`BEGIN { printf "%*.*d|%c|%5%|%-#x\n", 3, 2, 1, 300, 255 }`, "")
	f.Add(`function f(a) { return a[1] f(a) } BEGIN { x[1] = 1; print f(x) }`, "")
	f.Add(`BEGIN { RS = "(a|b)*" } { print NR ": " $0 }`, "xaabyy")
	f.Add(`/[[:alpha:]]{2,}|[^]x-]+/ { gsub(/\<|\>/, "|"); print }`, "ab ]x cd\n")
	savedFields, savedString := maxFields, maxString
	maxFields, maxString = 1<<12, 1<<16
	f.Cleanup(func() { maxFields, maxString = savedFields, savedString })
	f.Fuzz(func(t *testing.T, prog, input string) {
		if len(prog) > 2000 || len(input) > 4000 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		m := &memFiles{files: map[string]string{"data": "1 2\n3 4\n"}}
		out := &limitWriter{n: 1 << 16}
		type result struct{ err error }
		done := make(chan result, 1)
		go func() {
			_, err := Run(ctx, Config{
				Program: prog,
				Args:    []string{"data", "v=1"},
				Stdin:   strings.NewReader(input),
				Stdout:  out,
				Stderr:  io.Discard,
				Open:    m.open,
				Create:  m.create,
				Exec:    fakeExec(io.Discard),
			})
			done <- result{err}
		}()
		var err error
		select {
		case r := <-done:
			err = r.err
		case <-time.After(3 * time.Second):
			t.Fatalf("program %q input %q did not stop after its deadline", prog, input)
		}
		var ae *Error
		if errors.As(err, &ae) && strings.Contains(ae.Msg, "internal error") {
			t.Fatalf("program %q input %q: %s", prog, input, ae.Msg)
		}
	})
}
