// Package pipe is the in-memory pipe between the processes of the shell
// (pipeline stages, command and process substitutions).
package pipe

import (
	"io"
	"sync"
)

// bufPool keeps the buffers of drained pipes for the next ones: a
// pipeline's pipes each fill a buffer of up to Size bytes, and allocating
// them anew was a good part of a short pipeline's garbage.
var bufPool = sync.Pool{New: func() any { return new([Size]byte) }}

// release gives p's buffer back to bufPool (with p.mu held); nothing reads
// or writes p's buffer after.
func (p *pipe) release() {
	if cap(p.buf) == Size {
		bufPool.Put((*[Size]byte)(p.buf[:Size]))
	}
	p.buf, p.r = nil, 0
}

// pipe is an in-memory pipe with a buffer, as the kernel's: a write
// returns once its bytes are buffered (it waits only while the buffer is
// full), so the stages of a pipeline do not hand over every small write.
// Closing the read end makes writes fail with io.ErrClosedPipe (SIGPIPE);
// closing the write end gives the reader io.EOF after the buffered bytes.
type pipe struct {
	mu      sync.Mutex
	cond    *sync.Cond
	buf     []byte // buffered bytes: buf[r:], kept for reuse when drained
	r       int
	rerr    error // the reader closed: what writes return
	wclosed bool
	werr    error // the writer closed with this error (io.EOF by default)
}

// Size is the buffer of a pipe: Linux's default.
const Size = 64 << 10

// New returns the two ends of a new pipe.
func New() (*Reader, *Writer) {
	p := &pipe{}
	p.cond = sync.NewCond(&p.mu)
	return &Reader{p}, &Writer{p}
}

// Reader is the read end of a pipe; Writer is its write end. Each is
// safe for use by one goroutine while the other end is used by another.
type Reader struct{ p *pipe }

// Writer is the write end of a pipe.
type Writer struct{ p *pipe }

func (r *Reader) Read(b []byte) (int, error) {
	p := r.p
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.r == len(p.buf) {
		if p.rerr != nil {
			return 0, io.ErrClosedPipe
		}
		if p.wclosed {
			p.release()
			return 0, p.werr
		}
		p.cond.Wait()
	}
	n := copy(b, p.buf[p.r:])
	p.r += n
	if p.r == len(p.buf) {
		p.buf, p.r = p.buf[:0], 0
	}
	p.cond.Broadcast()
	return n, nil
}

// CloseWithError closes the read end: writes fail with io.ErrClosedPipe.
func (r *Reader) CloseWithError(err error) error {
	p := r.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if err == nil {
		err = io.ErrClosedPipe
	}
	if p.rerr == nil {
		p.rerr = err
	}
	p.release()
	p.cond.Broadcast()
	return nil
}

func (r *Reader) Close() error { return r.CloseWithError(nil) }

func (w *Writer) Write(b []byte) (int, error) {
	p := w.p
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for len(b) > 0 {
		if p.rerr != nil {
			return n, io.ErrClosedPipe
		}
		if p.wclosed {
			return n, io.ErrClosedPipe
		}
		room := Size - (len(p.buf) - p.r)
		if room <= 0 {
			p.cond.Wait()
			continue
		}
		k := min(room, len(b))
		if p.buf == nil {
			p.buf = bufPool.Get().(*[Size]byte)[:0]
		}
		if p.r > 0 && len(p.buf)+k > cap(p.buf) {
			// Move the unread bytes to the front rather than grow.
			p.buf = p.buf[:copy(p.buf, p.buf[p.r:])]
			p.r = 0
		}
		p.buf = append(p.buf, b[:k]...)
		b = b[k:]
		n += k
		p.cond.Broadcast()
	}
	return n, nil
}

// CloseWithError closes the write end: the reader gets err (io.EOF when
// nil) after the buffered bytes.
func (w *Writer) CloseWithError(err error) error {
	p := w.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if err == nil {
		err = io.EOF
	}
	if !p.wclosed {
		p.wclosed, p.werr = true, err
	}
	p.cond.Broadcast()
	return nil
}

func (w *Writer) Close() error { return w.CloseWithError(nil) }
