package pipe

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestPipe(t *testing.T) {
	r, w := New()
	data := bytes.Repeat([]byte("0123456789"), Size/5) // twice the buffer
	go func() {
		w.Write(data)
		w.Close()
	}()
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read %d bytes, %v; want %d", len(got), err, len(data))
	}

	// A closed read end fails a blocked writer: SIGPIPE.
	r, w = New()
	done := make(chan error)
	go func() {
		_, err := w.Write(data)
		done <- err
	}()
	buf := make([]byte, 10)
	if _, err := r.Read(buf); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if err := <-done; !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("write after the reader closed: %v", err)
	}
}

// TestPipeReuse: pipes drained or closed give their buffer back, and
// the next pipes carry their own bytes only.
func TestPipeReuse(t *testing.T) {
	for i := range 20 {
		r, w := New()
		want := strings.Repeat(string(rune('a'+i%26)), i*5000)
		go func() {
			w.Write([]byte(want))
			w.Close()
		}()
		got, err := io.ReadAll(r)
		if err != nil || string(got) != want {
			t.Fatalf("pipe %d: %d bytes, %v; want %d", i, len(got), err, len(want))
		}
		if i%3 == 0 {
			r.Close()
			if _, err := w.Write([]byte("x")); err != io.ErrClosedPipe {
				t.Fatalf("write after close: %v", err)
			}
		}
	}
}
