package pipe

import (
	"bytes"
	"errors"
	"io"
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
