package images

import (
	"fmt"
	"io"
	"sync"
)

// progress prints "label: done / total (pct%)" lines to w at each tenth of
// total, and once at the end. A nil *progress or nil w prints nothing.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	label string
	total int64
	n     int64
	step  int64 // last tenth printed
	ended bool
}

func newProgress(w io.Writer, label string, total int64) *progress {
	if w == nil {
		return nil
	}
	return &progress{w: w, label: label, total: total}
}

func (p *progress) add(n int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n += n
	p.report()
}

func (p *progress) set(n int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n = n
	p.report()
}

func (p *progress) report() {
	if p.ended || p.total <= 0 {
		return
	}
	if step := min(p.n*10/p.total, 10); step > p.step {
		p.step = step
		p.line()
	}
}

func (p *progress) line() {
	if p.total > 0 {
		fmt.Fprintf(p.w, "images: %s: %s / %s (%d%%)\n", p.label, humanBytes(p.n), humanBytes(p.total), min(p.n*100/p.total, 100))
	} else {
		fmt.Fprintf(p.w, "images: %s: %s\n", p.label, humanBytes(p.n))
	}
}

// done prints the final line unless the 100% line was already printed.
func (p *progress) done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ended && (p.total <= 0 || p.step < 10 || p.n != p.total) {
		if p.total > 0 && p.n > p.total {
			p.total = p.n
		}
		p.line()
	}
	p.ended = true
}

type countingReader struct {
	r  io.Reader
	pr *progress
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.pr.add(int64(n))
	return n, err
}

func say(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d B", n)
	}
}
