package wasm

import (
	"bytes"
	"context"
	"io"
	"testing"
)

// TestPipeGrows writes through a pipe in steps that wrap its ring and make
// it grow, reading part of it between writes: the bytes come out in order,
// the buffer starts small and never passes pipeSize, and a full pipe takes
// nothing more.
func TestPipeGrows(t *testing.T) {
	for _, tc := range []struct {
		name          string
		write, read   int // bytes per step
		steps         int
		wantFirstSize int
	}{
		{"a few bytes", 3, 3, 5, pipeFirst},
		{"wrapping at the first size", 3000, 2500, 40, pipeFirst},
		{"growing while wrapped", 5000, 1000, 40, 2 * pipeFirst},
		{"one big write", 100 << 10, 0, 1, pipeSize},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPipe(nil)
			if len(p.buf) != 0 {
				t.Fatalf("a new pipe holds %d bytes", len(p.buf))
			}
			var in, out bytes.Buffer
			next := byte(0)
			first := true
			for range tc.steps {
				b := make([]byte, tc.write)
				for i := range b {
					b[i], next = next, next+1
				}
				n, closed := p.tryWrite(b)
				if closed {
					t.Fatal("closed")
				}
				in.Write(b[:n])
				if first {
					first = false
					if len(p.buf) != tc.wantFirstSize {
						t.Errorf("after a first write of %d bytes the buffer is %d, want %d", tc.write, len(p.buf), tc.wantFirstSize)
					}
				}
				if len(p.buf) > pipeSize || p.n > pipeSize {
					t.Fatalf("buffer %d, unread %d: over pipeSize", len(p.buf), p.n)
				}
				if tc.write > pipeSize && n != pipeSize {
					t.Errorf("a write of %d took %d, want pipeSize", tc.write, n)
				}
				r := make([]byte, tc.read)
				k, _ := p.tryRead(r)
				out.Write(r[:k])
			}
			p.closeWrite()
			rest, err := io.ReadAll(pipeReader{ctx: context.Background(), p: p})
			if err != nil {
				t.Fatal(err)
			}
			out.Write(rest)
			if !bytes.Equal(out.Bytes(), in.Bytes()) {
				t.Fatalf("read %d bytes, not the %d written, in order", out.Len(), in.Len())
			}
		})
	}
}

// TestPipeFull checks the backpressure: a pipe holding pipeSize bytes
// takes no more until some are read.
func TestPipeFull(t *testing.T) {
	p := newPipe(nil)
	if n, _ := p.tryWrite(make([]byte, pipeSize+5)); n != pipeSize {
		t.Fatalf("took %d of %d, want pipeSize", n, pipeSize+5)
	}
	if n, _ := p.tryWrite([]byte("x")); n != 0 {
		t.Fatalf("a full pipe took %d", n)
	}
	if k, _ := p.tryRead(make([]byte, 10)); k != 10 {
		t.Fatalf("read %d", k)
	}
	if n, _ := p.tryWrite(make([]byte, 20)); n != 10 {
		t.Fatalf("took %d after 10 were read, want 10", n)
	}
}

// TestPipeCloseReadFrees checks that a pipe whose reader went away drops
// its buffer and refuses writes.
func TestPipeCloseReadFrees(t *testing.T) {
	p := newPipe(nil)
	if n, _ := p.tryWrite(make([]byte, 10000)); n != 10000 {
		t.Fatalf("wrote %d", n)
	}
	p.closeRead()
	if p.buf != nil || p.n != 0 {
		t.Errorf("after closeRead: buffer %d bytes, %d unread", len(p.buf), p.n)
	}
	if _, closed := p.tryWrite([]byte("x")); !closed {
		t.Error("a write after closeRead was taken")
	}
}
