package wasm

import (
	"context"
	"errors"
	"io"
	"sync"
)

// pipeSize is the capacity of a host pipe: a writer that gets this far
// ahead of its reader waits (backpressure), as with a Linux pipe.
const pipeSize = 64 << 10

// pipeFirst is the size of a pipe's buffer when something is first written
// to it; it doubles up to pipeSize as the writer gets ahead. Most pipes
// carry a few bytes (a python3 child's stdout "42\n") or none (its stderr,
// its stdin), and a command's three pipes of 64 KiB each were 192 KiB made
// and dropped per child.
const pipeFirst = 4 << 10

// errPipeClosed: the pipe's reader went away (EPIPE).
var errPipeClosed = errors.New("broken pipe")

// pipe is a bounded byte pipe between a child instance and its parent
// guest (which polls it: tryRead, tryWrite) or another child (which
// blocks on it: read, write, always watching a context). wake is called on
// every change, so a polling guest sleeping in proc_poll wakes up.
type pipe struct {
	mu      sync.Mutex
	buf     []byte // a ring of up to pipeSize bytes, grown as needed
	start   int    // index of the first unread byte
	n       int    // unread bytes
	wclosed bool
	rclosed bool
	waiting int           // readers blocked on an empty pipe
	changed chan struct{} // closed and replaced at every change
	wake    func()
}

func newPipe(wake func()) *pipe {
	return &pipe{changed: make(chan struct{}), wake: wake}
}

// signal tells waiters something changed. Callers hold mu.
func (p *pipe) signal() {
	close(p.changed)
	p.changed = make(chan struct{})
	if p.wake != nil {
		p.wake()
	}
}

// grow makes room for want unread bytes in all (pipeSize at most), the
// unread ones moved to the start. Callers hold mu.
func (p *pipe) grow(want int) {
	size := max(len(p.buf), pipeFirst)
	for size < want && size < pipeSize {
		size *= 2
	}
	size = min(size, pipeSize)
	if size <= len(p.buf) {
		return
	}
	buf := make([]byte, size)
	p.n = p.take(buf)
	p.buf, p.start = buf, 0
}

// put copies what fits of b into the buffer. Callers hold mu.
func (p *pipe) put(b []byte) int {
	if p.n+len(b) > len(p.buf) {
		p.grow(p.n + len(b))
	}
	size := len(p.buf)
	k := 0
	for k < len(b) && p.n < size {
		end := (p.start + p.n) % size
		limit := size
		if end < p.start {
			limit = p.start
		}
		c := copy(p.buf[end:limit], b[k:])
		if c == 0 {
			break
		}
		k += c
		p.n += c
	}
	return k
}

// take copies buffered bytes into b. Callers hold mu.
func (p *pipe) take(b []byte) int {
	k := 0
	for k < len(b) && p.n > 0 {
		limit := min(p.start+p.n, len(p.buf))
		c := copy(b[k:], p.buf[p.start:limit])
		k += c
		p.n -= c
		p.start = (p.start + c) % len(p.buf)
	}
	if p.n == 0 {
		p.start = 0
	}
	return k
}

// write writes all of b, waiting for room. It returns errPipeClosed once
// the reader is gone, and ctx's error when ctx ends first.
func (p *pipe) write(ctx context.Context, b []byte) (int, error) {
	written := 0
	for {
		p.mu.Lock()
		if p.rclosed {
			p.mu.Unlock()
			return written, errPipeClosed
		}
		if k := p.put(b[written:]); k > 0 {
			written += k
			p.signal()
		}
		if written == len(b) {
			p.mu.Unlock()
			return written, nil
		}
		ch := p.changed
		p.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return written, ctx.Err()
		}
	}
}

// tryWrite writes what fits of b now: n > 0, or 0 when full; closed when
// the reader is gone.
func (p *pipe) tryWrite(b []byte) (n int, closed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rclosed {
		return 0, true
	}
	if n = p.put(b); n > 0 {
		p.signal()
	}
	return n, false
}

// read reads what is there, waiting for at least one byte; io.EOF once
// the writer closed and the buffer is empty; ctx's error when ctx ends.
func (p *pipe) read(ctx context.Context, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	p.mu.Lock()
	for {
		if p.n > 0 {
			k := p.take(b)
			p.signal()
			p.mu.Unlock()
			return k, nil
		}
		if p.wclosed || p.rclosed {
			p.mu.Unlock()
			return 0, io.EOF
		}
		p.waiting++
		if p.waiting == 1 {
			p.signal() // a polling writer may want to know a reader waits
		}
		ch := p.changed
		p.mu.Unlock()
		var err error
		select {
		case <-ch:
		case <-ctx.Done():
			err = ctx.Err()
		}
		p.mu.Lock()
		p.waiting--
		if err != nil {
			p.mu.Unlock()
			return 0, err
		}
	}
}

// tryRead reads what is there now: n > 0; eof when the writer closed and
// the buffer is empty; n == 0 and !eof when the caller should try again.
func (p *pipe) tryRead(b []byte) (n int, eof bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n > 0 {
		n = p.take(b)
		p.signal()
		return n, false
	}
	return 0, p.wclosed || p.rclosed
}

// wanted reports whether a reader waits on the empty pipe, and whether the
// reader is gone.
func (p *pipe) wanted() (want, gone bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n == 0 && p.waiting > 0, p.rclosed
}

// closeWrite ends the pipe for its reader once the buffer is drained.
func (p *pipe) closeWrite() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.wclosed {
		p.wclosed = true
		p.signal()
	}
}

// closeRead drops what is buffered; later writes get errPipeClosed.
func (p *pipe) closeRead() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.rclosed {
		p.rclosed = true
		p.n, p.start, p.buf = 0, 0, nil
		p.signal()
	}
}

// pipeReader is the reading end of a pipe for a child's stdin, bound to
// the child's context.
type pipeReader struct {
	ctx context.Context
	p   *pipe
}

func (r pipeReader) Read(b []byte) (int, error) { return r.p.read(r.ctx, b) }
