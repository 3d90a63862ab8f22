package cmdutil

import (
	"bufio"
	"io"
	"sync"
)

// BufSize is the size of the scratch buffers of GetBuf and of the line
// reading of ReadLines: a pipe's capacity, so that one read takes what a
// pipe holds.
const BufSize = 64 << 10

// OutSize is the size of a command's buffered standard output (NewOut,
// GetWriter, LineOut): what it writes in one go.
const OutSize = 32 << 10

// Buffers are reused between commands: a pipeline's commands each read
// and write through tens of KiB of buffers, and allocating them anew made
// most of a short pipeline's garbage (and so of its GC work, which in
// busybox.wasm runs on the one thread the commands run on).
var (
	bufPool    = sync.Pool{New: func() any { b := make([]byte, BufSize); return &b }}
	writerPool = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, OutSize) }}
)

// GetBuf returns a scratch buffer of BufSize bytes (with what an earlier
// user left in it). Give it back with PutBuf once it is no longer used.
func GetBuf() *[]byte { return bufPool.Get().(*[]byte) }

// PutBuf gives back a buffer of GetBuf; nothing may use it after. A
// buffer whose slice was replaced by one of another size is dropped.
func PutBuf(b *[]byte) {
	if b != nil && len(*b) == BufSize {
		bufPool.Put(b)
	}
}

// GetWriter returns a bufio.Writer of OutSize bytes writing to w. Give it
// back with PutWriter once it is flushed and no longer used.
func GetWriter(w io.Writer) *bufio.Writer {
	bw := writerPool.Get().(*bufio.Writer)
	bw.Reset(w)
	return bw
}

// PutWriter gives back a writer of GetWriter (or any of OutSize bytes);
// what it holds unflushed is dropped.
func PutWriter(bw *bufio.Writer) {
	if bw != nil && bw.Size() == OutSize {
		bw.Reset(nil)
		writerPool.Put(bw)
	}
}

// LineOut buffers delimited records for a writer, OutSize bytes at a
// time, as a bufio.Writer does for them but with one call per record. It
// remembers the first write error; nothing is written after it.
type LineOut struct {
	w   io.Writer
	b   *[]byte
	buf []byte
	err error
}

// NewLineOut returns a LineOut writing to w; Close flushes it and gives
// its buffer back.
func NewLineOut(w io.Writer) *LineOut {
	b := GetBuf()
	return &LineOut{w: w, b: b, buf: (*b)[:0]}
}

// Line buffers line and delim, writing the buffer out when it holds
// OutSize bytes or more. It returns the first write error.
func (o *LineOut) Line(line []byte, delim byte) error {
	o.buf = append(o.buf, line...)
	o.buf = append(o.buf, delim)
	if len(o.buf) >= OutSize {
		return o.Flush()
	}
	return o.err
}

// Write buffers p as it is.
func (o *LineOut) Write(p []byte) (int, error) {
	o.buf = append(o.buf, p...)
	if len(o.buf) >= OutSize {
		return len(p), o.Flush()
	}
	return len(p), o.err
}

// Flush writes out what is buffered and returns the first write error.
func (o *LineOut) Flush() error {
	if len(o.buf) > 0 && o.err == nil {
		_, o.err = o.w.Write(o.buf)
	}
	o.buf = o.buf[:0]
	return o.err
}

// Close flushes o and gives its buffer back; o is not used after.
func (o *LineOut) Close() error {
	err := o.Flush()
	if o.b != nil {
		// A line longer than the buffer moved buf to a larger array:
		// o.b's is then unused, and goes back all the same.
		PutBuf(o.b)
		o.b, o.buf = nil, nil
	}
	return err
}
