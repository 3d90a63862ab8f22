package runtime

import "sync"

// eventQueue is an unbounded, ordered queue of events feeding one channel,
// started on the first call of channel: a RunHandle's events, kept until
// read, never dropped and never blocking the run.
type eventQueue struct {
	mu      sync.Mutex
	items   []Event
	closed  bool
	wake    chan struct{}
	out     chan Event
	started bool
}

func newEventQueue() *eventQueue {
	return &eventQueue{wake: make(chan struct{}, 1), out: make(chan Event)}
}

func (q *eventQueue) push(ev Event) {
	q.mu.Lock()
	if !q.closed {
		q.items = append(q.items, ev)
	}
	q.mu.Unlock()
	q.poke()
}

func (q *eventQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.poke()
}

func (q *eventQueue) poke() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *eventQueue) channel() <-chan Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.started {
		q.started = true
		go q.pump()
	}
	return q.out
}

func (q *eventQueue) pump() {
	for {
		q.mu.Lock()
		if len(q.items) == 0 {
			closed := q.closed
			q.mu.Unlock()
			if closed {
				close(q.out)
				return
			}
			<-q.wake
			continue
		}
		ev := q.items[0]
		q.items = q.items[1:]
		q.mu.Unlock()
		q.out <- ev
	}
}
