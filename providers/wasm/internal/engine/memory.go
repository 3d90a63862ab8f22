package engine

import (
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero/experimental"
)

// capAllocator backs one instance's linear memory with a byte slice that
// may not grow past limit bytes. It records whether the guest ever asked for
// more, and the most it had.
type capAllocator struct {
	limit   uint64
	data    *dataImage    // the initial contents, when the module was split (splitData)
	snap    *dataImage    // a snapshot laid over the memory once it is as large (clone.go)
	budget  *MemoryBudget // shared with other instances, or nil
	mem     *capMemory    // the instance's memory, once allocated
	hit     atomic.Bool
	over    atomic.Bool                  // the budget, not the limit, said no
	refused atomic.Pointer[MemoryBudget] // which budget: the command's or a parent
	peak    atomic.Uint64

	// A mapping is unmapped only once the run is over: wazero may free an
	// instance's memory from another goroutine (Runtime.Close) while the
	// guest still runs on it.
	mu      sync.Mutex
	running bool
	pending [][]byte
}

// start marks the run as begun: Free keeps the mappings until done.
func (a *capAllocator) start() {
	a.mu.Lock()
	a.running = true
	a.mu.Unlock()
}

// done ends the run and unmaps what Free was given meanwhile.
func (a *capAllocator) done() {
	a.mu.Lock()
	a.running = false
	pending := a.pending
	a.pending = nil
	a.mu.Unlock()
	for _, b := range pending {
		unmapMemory(b)
	}
}

func (a *capAllocator) unmap(b []byte) {
	a.mu.Lock()
	if a.running {
		a.pending = append(a.pending, b)
		a.mu.Unlock()
		return
	}
	a.mu.Unlock()
	unmapMemory(b)
}

func (a *capAllocator) Allocate(_, max uint64) experimental.LinearMemory {
	m := &capMemory{a: a, max: min(max, a.limit)}
	a.mem = m
	return m
}

// rebudget moves the instance's memory from its budget to b (nil: none),
// for a Warm instance's next command. It reports false, changing nothing,
// when b cannot take it. Called only while the guest waits for a request.
func (a *capAllocator) rebudget(b *MemoryBudget) bool {
	if a.budget == b {
		return true
	}
	var size, taken uint64 // the memory's size now, and what its budget holds
	if a.mem != nil {
		size, taken = uint64(len(a.mem.buf)), a.mem.size
	}
	if b != nil && b.take(size) != nil {
		return false
	}
	if a.budget != nil {
		a.budget.give(taken)
	}
	a.budget = b
	if a.mem != nil {
		a.mem.size = 0
		if b != nil {
			a.mem.size = size
		}
	}
	return true
}

type capMemory struct {
	a       *capAllocator
	max     uint64
	size    uint64 // bytes taken from the budget
	buf     []byte
	mapped  []byte // the whole reservation, when the memory is mapped (mapMemory)
	tried   bool
	snapped bool // a.snap is laid in
}

// Reallocate grows the memory to size bytes, or returns nil (memory.grow
// then yields -1 in the guest) past the cap.
//
// Where the OS allows it (mapMemory), the memory is one anonymous mapping
// of the cap's size, reserved at the first call: growing then neither
// copies nor clears (the kernel hands out zeroed pages as they are first
// touched), untouched pages cost nothing, the Go heap and its collector
// never see the guest's bytes, and Free returns them to the OS at once.
// Elsewhere it is a Go slice grown geometrically.
func (m *capMemory) Reallocate(size uint64) []byte {
	if size > m.max {
		m.a.hit.Store(true)
		return nil
	}
	if b := m.a.budget; b != nil && size > m.size {
		if refused := b.take(size - m.size); refused != nil {
			m.a.hit.Store(true)
			m.a.over.Store(true)
			m.a.refused.Store(refused)
			return nil
		}
		m.size = size
	}
	if size > m.a.peak.Load() {
		m.a.peak.Store(size)
	}
	if !m.tried {
		m.tried = true
		if b, ok := mapMemory(m.max); ok {
			m.mapped = b
		}
		if d := m.a.data; d != nil {
			// The first call is the initial memory: lay the data in.
			if uint64(d.size) > size {
				return nil // cannot happen: splitData checked the size
			}
			if m.mapped == nil || !d.mapInto(m.mapped) {
				if m.mapped == nil {
					m.buf = make([]byte, size)
				} else {
					m.buf = m.mapped[:size]
				}
				copy(m.buf, d.bytes)
				return m.buf
			}
		}
	}
	if s := m.a.snap; s != nil && !m.snapped && size >= uint64(s.size) {
		m.snapped = true
		if m.mapped != nil && s.mapInto(m.mapped) {
			m.buf = m.mapped[:size]
			return m.buf
		}
		defer func() { copy(m.buf, s.bytes) }()
	}
	if m.mapped != nil {
		m.buf = m.mapped[:size]
		return m.buf
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

// relay lays the snapshot (a.snap) over the memory again, as it was when
// first laid in: the pages written since are dropped (a mapped memory is
// mapped anew from the image; a copied one copied again). The memory must
// be the snapshot's size; false when it is not, or the mapping fails.
func (a *capAllocator) relay() bool {
	m, s := a.mem, a.snap
	if m == nil || s == nil || !m.snapped || len(m.buf) != s.size {
		return false
	}
	if m.mapped != nil {
		return s.mapInto(m.mapped)
	}
	copy(m.buf, s.bytes)
	return true
}

func (m *capMemory) Free() {
	if b := m.a.budget; b != nil && m.size > 0 {
		b.give(m.size)
		m.size = 0
	}
	if m.mapped != nil {
		m.a.unmap(m.mapped)
		m.mapped = nil
	}
	m.buf = nil
}

// MemoryBudget caps the linear memory of several instances together: a
// command's instances, or (as the parent of the commands' budgets) every
// instance a provider runs.
type MemoryBudget struct {
	limit  uint64
	used   atomic.Uint64
	parent *MemoryBudget // charged too, when set
}

// NewMemoryBudget returns a budget of limit bytes.
func NewMemoryBudget(limit uint64) *MemoryBudget { return &MemoryBudget{limit: limit} }

// NewMemoryBudgetWithin returns a budget of limit bytes whose every byte is
// charged to parent too (nil: none): a command's budget within the
// provider's.
func NewMemoryBudgetWithin(parent *MemoryBudget, limit uint64) *MemoryBudget {
	return &MemoryBudget{limit: limit, parent: parent}
}

// Limit is the budget's size in bytes.
func (b *MemoryBudget) Limit() uint64 { return b.limit }

// Used is what the instances hold now, in bytes.
func (b *MemoryBudget) Used() uint64 { return b.used.Load() }

// take takes n bytes from b and its parents, all or none; it returns the
// budget that said no, or nil.
func (b *MemoryBudget) take(n uint64) *MemoryBudget {
	for {
		u := b.used.Load()
		if u+n > b.limit {
			return b
		}
		if b.used.CompareAndSwap(u, u+n) {
			break
		}
	}
	if b.parent != nil {
		if refused := b.parent.take(n); refused != nil {
			b.used.Add(^(n - 1))
			return refused
		}
	}
	return nil
}

func (b *MemoryBudget) give(n uint64) {
	if n == 0 {
		return
	}
	b.used.Add(^(n - 1))
	if b.parent != nil {
		b.parent.give(n)
	}
}
