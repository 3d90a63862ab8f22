package node

import (
	"container/heap"
	"time"

	"github.com/dop251/goja"
)

// nodeTimer is a setTimeout, setInterval or setImmediate callback.
type nodeTimer struct {
	id       int64
	fn       goja.Callable
	due      time.Time
	interval time.Duration
	repeat   bool
	ref      bool
	cleared  bool
	seq      int64
	index    int // in the heap, -1 when out
}

// nodeTimerHeap orders timers by due time, then by creation.
type nodeTimerHeap []*nodeTimer

func (h nodeTimerHeap) Len() int { return len(h) }
func (h nodeTimerHeap) Less(i, j int) bool {
	if !h[i].due.Equal(h[j].due) {
		return h[i].due.Before(h[j].due)
	}
	return h[i].seq < h[j].seq
}
func (h nodeTimerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *nodeTimerHeap) Push(x any) {
	t := x.(*nodeTimer)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *nodeTimerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	t.index = -1
	return t
}

// nodeLoop is the event loop's state: timers by due time and the
// setImmediate queue. Only timers that are ref'd keep the loop alive.
type nodeLoop struct {
	timers     nodeTimerHeap
	byID       map[int64]*nodeTimer
	immediates []*nodeTimer
	nextID     int64
	seq        int64
	refs       int // live, ref'd timers
}

func (l *nodeLoop) init() { l.byID = map[int64]*nodeTimer{} }

// add schedules fn after d (every d when repeat) and returns its id.
func (l *nodeLoop) add(fn goja.Callable, d time.Duration, repeat bool) int64 {
	l.nextID++
	l.seq++
	t := &nodeTimer{id: l.nextID, fn: fn, due: time.Now().Add(d), interval: d, repeat: repeat, ref: true, seq: l.seq}
	l.byID[t.id] = t
	heap.Push(&l.timers, t)
	l.refs++
	return t.id
}

// addImmediate queues fn for the loop's check phase.
func (l *nodeLoop) addImmediate(fn goja.Callable) int64 {
	l.nextID++
	t := &nodeTimer{id: l.nextID, fn: fn, index: -1}
	l.byID[t.id] = t
	l.immediates = append(l.immediates, t)
	return t.id
}

// clear cancels the timer or immediate id (nothing when it is gone).
func (l *nodeLoop) clear(id int64) {
	t, ok := l.byID[id]
	if !ok {
		return
	}
	delete(l.byID, id)
	t.cleared = true
	if t.index >= 0 {
		heap.Remove(&l.timers, t.index)
		if t.ref {
			l.refs--
		}
	}
}

// setRef makes the timer id keep the loop alive or not.
func (l *nodeLoop) setRef(id int64, ref bool) {
	t, ok := l.byID[id]
	if !ok || t.index < 0 || t.ref == ref {
		return
	}
	t.ref = ref
	if ref {
		l.refs++
	} else {
		l.refs--
	}
}

func (l *nodeLoop) hasRef(id int64) bool {
	t, ok := l.byID[id]
	return ok && t.ref
}

// refresh restarts the timer id's countdown.
func (l *nodeLoop) refresh(id int64) {
	t, ok := l.byID[id]
	if !ok || t.index < 0 {
		return
	}
	l.seq++
	t.due, t.seq = time.Now().Add(t.interval), l.seq
	heap.Fix(&l.timers, t.index)
}

// alive tells whether anything keeps the loop running.
func (l *nodeLoop) alive() bool { return l.refs > 0 || len(l.immediates) > 0 }

// runLoop runs timers and immediates until none keeps the loop alive, the
// script exits or dies, or ctx ends. Each callback is a macrotask: its
// promise jobs run when it returns (goja drains them), then unhandled
// rejections are reported.
func (r *nodeRT) runLoop() {
	l := &r.loop
	for !r.stopped() {
		if !l.alive() {
			// process.on('beforeExit') may schedule more work.
			v, ok := r.call(func() (goja.Value, error) {
				code := 0
				if c, err := r.hooks.exitCode(goja.Undefined()); err == nil {
					code = int(c.ToInteger())
				}
				return r.hooks.emitBeforeExit(goja.Undefined(), r.vm.ToValue(code))
			})
			if !ok || v == nil || !v.ToBoolean() || !l.alive() {
				return
			}
			continue
		}
		// Timers phase: every timer due now, in order.
		now := time.Now()
		for l.timers.Len() > 0 && !r.stopped() {
			t := l.timers[0]
			if t.due.After(now) {
				break
			}
			heap.Pop(&l.timers)
			if t.repeat {
				l.seq++
				t.due, t.seq = time.Now().Add(t.interval), l.seq
				heap.Push(&l.timers, t)
			} else {
				delete(l.byID, t.id)
				if t.ref {
					l.refs--
				}
			}
			fn := t.fn
			r.call(func() (goja.Value, error) { return fn(goja.Undefined()) })
		}
		// Check phase: the immediates queued so far.
		imm := l.immediates
		l.immediates = nil
		for i, t := range imm {
			if r.stopped() {
				l.immediates = append(imm[i:], l.immediates...)
				break
			}
			if t.cleared {
				continue
			}
			delete(l.byID, t.id)
			fn := t.fn
			r.call(func() (goja.Value, error) { return fn(goja.Undefined()) })
		}
		if r.stopped() || len(l.immediates) > 0 || !l.alive() {
			continue
		}
		// Wait for the next timer (or the end of ctx).
		if l.timers.Len() == 0 {
			continue
		}
		wait := time.Until(l.timers[0].due)
		if wait <= 0 {
			continue
		}
		r.stdout.flush()
		r.stderr.flush()
		tm := time.NewTimer(wait)
		select {
		case <-tm.C:
		case <-r.ctx.Done():
			tm.Stop()
		}
	}
}
