package cmdutil

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestLineOut: records come out as written one by one with their
// delimiters, whatever their sizes (a record longer than the buffer too),
// flushed at Close; a write error is kept and returned.
func TestLineOut(t *testing.T) {
	for _, lines := range [][]string{
		nil,
		{"a"},
		{"", "", ""},
		{"x", strings.Repeat("y", 3*BufSize), "z"},
		strings.Split(strings.Repeat("line of text\n", 10000), "\n"),
	} {
		var got bytes.Buffer
		o := NewLineOut(&got)
		var want strings.Builder
		for _, l := range lines {
			if err := o.Line([]byte(l), '\n'); err != nil {
				t.Fatal(err)
			}
			want.WriteString(l + "\n")
		}
		if err := o.Close(); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%d lines: %d bytes out, want %d", len(lines), got.Len(), want.Len())
		}
	}
	boom := errors.New("boom")
	o := NewLineOut(failWriter{boom})
	var err error
	for i := 0; i < 10000 && err == nil; i++ {
		err = o.Line([]byte("some line"), '\n')
	}
	if !errors.Is(err, boom) || !errors.Is(o.Close(), boom) {
		t.Errorf("write error: %v", err)
	}
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

// TestPooledBuffers: a buffer given back comes back whole; one whose
// slice changed size is not kept.
func TestPooledBuffers(t *testing.T) {
	b := GetBuf()
	if len(*b) != BufSize {
		t.Fatalf("GetBuf: %d bytes", len(*b))
	}
	PutBuf(b)
	short := make([]byte, 10)
	PutBuf(&short)
	for range 4 {
		if b := GetBuf(); len(*b) != BufSize {
			t.Fatalf("GetBuf after PutBuf: %d bytes", len(*b))
		}
	}
	var out bytes.Buffer
	w := GetWriter(&out)
	w.WriteString("hi")
	w.Flush()
	PutWriter(w)
	if w2 := GetWriter(&out); w2.Buffered() != 0 || w2.Size() != OutSize {
		t.Errorf("GetWriter: %d buffered, size %d", w2.Buffered(), w2.Size())
	}
	if out.String() != "hi" {
		t.Errorf("out %q", out.String())
	}
}
