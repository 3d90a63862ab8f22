package engine

import (
	"bytes"
	"context"
	"io"
	"strings"
)

// stdinFor wraps r so a guest blocked reading it gets end of file when ctx
// ends. Readers that never block are used as they are.
func stdinFor(ctx context.Context, r io.Reader) io.Reader {
	switch r.(type) {
	case nil:
		return nil
	case *bytes.Reader, *strings.Reader, *bytes.Buffer:
		return r
	}
	return &ctxReader{ctx: ctx, r: r}
}

// ctxReader reads r on a goroutine of its own, one chunk ahead at most, so
// Read can give up when ctx ends. The goroutine ends when r returns an error
// or, after ctx ended, when its pending Read returns.
type ctxReader struct {
	ctx     context.Context
	r       io.Reader
	chunks  chan chunk
	pending []byte
	err     error
}

type chunk struct {
	b   []byte
	err error
}

func (c *ctxReader) pump() {
	defer close(c.chunks)
	for {
		b := make([]byte, 32<<10)
		n, err := c.r.Read(b)
		select {
		case c.chunks <- chunk{b[:n], err}:
		case <-c.ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if len(c.pending) > 0 {
		n := copy(p, c.pending)
		c.pending = c.pending[n:]
		return n, nil
	}
	if c.err != nil {
		return 0, c.err
	}
	if c.chunks == nil {
		c.chunks = make(chan chunk)
		go c.pump()
	}
	for {
		select {
		case ch, ok := <-c.chunks:
			if !ok {
				c.err = io.EOF
				return 0, io.EOF
			}
			if ch.err != nil {
				c.err = ch.err
			}
			if len(ch.b) == 0 {
				if c.err != nil {
					return 0, c.err
				}
				continue
			}
			n := copy(p, ch.b)
			c.pending = ch.b[n:]
			return n, nil
		case <-c.ctx.Done():
			c.err = io.EOF
			return 0, io.EOF
		}
	}
}
