package engine

import (
	"sync/atomic"

	"github.com/tetratelabs/wazero/experimental"
)

// capAllocator backs one instance's linear memory with a byte slice that
// may not grow past limit bytes. It records whether the guest ever asked for
// more, and the most it had.
type capAllocator struct {
	limit uint64
	hit   atomic.Bool
	peak  atomic.Uint64
}

func (a *capAllocator) Allocate(_, max uint64) experimental.LinearMemory {
	return &capMemory{a: a, max: min(max, a.limit)}
}

type capMemory struct {
	a   *capAllocator
	max uint64
	buf []byte
}

// Reallocate grows the memory to size bytes, or returns nil (memory.grow
// then yields -1 in the guest) past the cap.
func (m *capMemory) Reallocate(size uint64) []byte {
	if size > m.max {
		m.a.hit.Store(true)
		return nil
	}
	if size > m.a.peak.Load() {
		m.a.peak.Store(size)
	}
	if size <= uint64(cap(m.buf)) {
		m.buf = m.buf[:size]
		return m.buf
	}
	// Grow geometrically, as append would, so a guest growing a page at a
	// time does not copy its whole memory every time. Untouched capacity
	// costs no RSS: large slices are fresh pages from the OS.
	newCap := min(max(size, uint64(cap(m.buf))*2), m.max)
	buf := make([]byte, size, newCap)
	copy(buf, m.buf)
	m.buf = buf
	return m.buf
}

func (m *capMemory) Free() { m.buf = nil }
