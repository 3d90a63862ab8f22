// Package queuetest is the conformance suite of [queue.Queue]: every
// adapter's test runs it.
package queuetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/runtime/queue"
)

// NewQueue returns a queue with the given visibility timeout for one
// subtest. Every call within one subtest must return a queue on the same
// backend (another connection, as another worker would open; in-process
// adapters return the same value), isolated from other subtests.
type NewQueue func(t *testing.T, visibility time.Duration) queue.Queue

// Run runs the suite.
func Run(t *testing.T, newQueue NewQueue) {
	for _, c := range []struct {
		name string
		fn   func(t *testing.T, newQueue NewQueue)
	}{
		{"FirstInFirstOut", testFIFO},
		{"DequeueWaits", testDequeueWaits},
		{"DequeueHonoursContext", testDequeueHonoursContext},
		{"AckRemoves", testAckRemoves},
		{"RedeliveredAfterVisibility", testRedelivered},
		{"ExtendKeepsItHidden", testExtend},
		{"NackWithDelay", testNack},
		{"SameIDWhileQueued", testSameID},
		{"OneConsumerEach", testOneConsumerEach},
		{"Close", testClose},
	} {
		t.Run(c.name, func(t *testing.T) { c.fn(t, newQueue) })
	}
}

const long = time.Minute

func must(t *testing.T, err error, what string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func dequeue(t *testing.T, q queue.Queue, within time.Duration) queue.Delivery {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), within)
	defer cancel()
	d, err := q.Dequeue(ctx)
	must(t, err, "Dequeue")
	return d
}

func nothing(t *testing.T, q queue.Queue, for_ time.Duration, what string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), for_)
	defer cancel()
	d, err := q.Dequeue(ctx)
	if err == nil {
		t.Fatalf("%s: got job %s (attempt %d), want none", what, d.ID, d.Attempt)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%s: got %v, want context.DeadlineExceeded", what, err)
	}
}

func testFIFO(t *testing.T, newQueue NewQueue) {
	q := newQueue(t, long)
	for i := range 5 {
		must(t, q.Enqueue(t.Context(), queue.Job{ID: fmt.Sprint("j", i), Kind: "resume", Payload: []byte(fmt.Sprint(`{"n":`, i, `}`))}), "Enqueue")
	}
	for i := range 5 {
		d := dequeue(t, q, 5*time.Second)
		if d.ID != fmt.Sprint("j", i) || d.Kind != "resume" || string(d.Payload) != fmt.Sprint(`{"n":`, i, `}`) || d.Attempt != 1 || d.Token == "" {
			t.Fatalf("delivery %d = %+v", i, d)
		}
		must(t, q.Ack(t.Context(), d), "Ack")
	}
	must(t, q.Enqueue(t.Context(), queue.Job{Kind: "x"}), "Enqueue without an id")
	if d := dequeue(t, q, 5*time.Second); d.ID == "" {
		t.Error("Enqueue did not give the job an id")
	}
}

func testDequeueWaits(t *testing.T, newQueue NewQueue) {
	consumer, producer := newQueue(t, long), newQueue(t, long)
	got := make(chan queue.Delivery, 1)
	go func() {
		d, err := consumer.Dequeue(t.Context())
		if err == nil {
			got <- d
		}
	}()
	time.Sleep(100 * time.Millisecond)
	must(t, producer.Enqueue(t.Context(), queue.Job{ID: "late"}), "Enqueue")
	select {
	case d := <-got:
		if d.ID != "late" {
			t.Errorf("got %s", d.ID)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a waiting Dequeue did not get a job enqueued on another connection")
	}
}

func testDequeueHonoursContext(t *testing.T, newQueue NewQueue) {
	q := newQueue(t, long)
	start := time.Now()
	nothing(t, q, 200*time.Millisecond, "an empty queue")
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Dequeue took %s to notice its ctx ended", d)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := q.Dequeue(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Dequeue with a canceled ctx: %v", err)
	}
}

func testAckRemoves(t *testing.T, newQueue NewQueue) {
	q := newQueue(t, 300*time.Millisecond)
	must(t, q.Enqueue(t.Context(), queue.Job{ID: "j"}), "Enqueue")
	d := dequeue(t, q, 5*time.Second)
	must(t, q.Ack(t.Context(), d), "Ack")
	if err := q.Ack(t.Context(), d); !errors.Is(err, queue.ErrLost) {
		t.Errorf("a second Ack: got %v, want ErrLost", err)
	}
	nothing(t, q, time.Second, "after Ack, past the visibility timeout")
}

func testRedelivered(t *testing.T, newQueue NewQueue) {
	a, b := newQueue(t, 300*time.Millisecond), newQueue(t, 300*time.Millisecond)
	must(t, a.Enqueue(t.Context(), queue.Job{ID: "j", Payload: []byte("p")}), "Enqueue")
	first := dequeue(t, a, 5*time.Second)
	nothing(t, b, 100*time.Millisecond, "while the job is in flight")
	second := dequeue(t, b, 5*time.Second) // the crashed consumer never acked
	if second.ID != "j" || second.Attempt != 2 || string(second.Payload) != "p" || second.Token == first.Token {
		t.Fatalf("redelivery = %+v, want job j attempt 2 with a new token", second)
	}
	if err := a.Ack(t.Context(), first); !errors.Is(err, queue.ErrLost) {
		t.Errorf("Ack of the expired delivery: got %v, want ErrLost", err)
	}
	if err := a.Extend(t.Context(), first); !errors.Is(err, queue.ErrLost) {
		t.Errorf("Extend of the expired delivery: got %v, want ErrLost", err)
	}
	must(t, b.Ack(t.Context(), second), "Ack of the live delivery")
}

func testExtend(t *testing.T, newQueue NewQueue) {
	q := newQueue(t, 400*time.Millisecond)
	must(t, q.Enqueue(t.Context(), queue.Job{ID: "j"}), "Enqueue")
	d := dequeue(t, q, 5*time.Second)
	other := newQueue(t, 400*time.Millisecond)
	got := make(chan queue.Delivery, 1)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		if d, err := other.Dequeue(ctx); err == nil {
			got <- d
		}
	}()
	for range 6 { // 1.2 s, three timeouts' worth
		time.Sleep(200 * time.Millisecond)
		must(t, q.Extend(t.Context(), d), "Extend")
	}
	select {
	case r := <-got:
		t.Fatalf("an extended job was delivered again (attempt %d)", r.Attempt)
	default:
	}
	must(t, q.Ack(t.Context(), d), "Ack after Extend")
}

func testNack(t *testing.T, newQueue NewQueue) {
	q := newQueue(t, long)
	must(t, q.Enqueue(t.Context(), queue.Job{ID: "j"}), "Enqueue")
	d := dequeue(t, q, 5*time.Second)
	must(t, q.Nack(t.Context(), d, 500*time.Millisecond), "Nack")
	if err := q.Ack(t.Context(), d); !errors.Is(err, queue.ErrLost) {
		t.Errorf("Ack after Nack: got %v, want ErrLost", err)
	}
	start := time.Now()
	again := dequeue(t, q, 5*time.Second)
	if waited := time.Since(start); waited < 400*time.Millisecond {
		t.Errorf("a job given back with a 500 ms delay came back after %s", waited)
	}
	if again.Attempt != 2 {
		t.Errorf("attempt %d, want 2", again.Attempt)
	}
	must(t, q.Nack(t.Context(), again, 0), "Nack without delay")
	if third := dequeue(t, q, 5*time.Second); third.Attempt != 3 {
		t.Errorf("attempt %d, want 3", third.Attempt)
	}
}

func testSameID(t *testing.T, newQueue NewQueue) {
	q := newQueue(t, long)
	must(t, q.Enqueue(t.Context(), queue.Job{ID: "resume/run-1"}), "Enqueue")
	must(t, q.Enqueue(t.Context(), queue.Job{ID: "resume/run-1"}), "Enqueue again while queued")
	d := dequeue(t, q, 5*time.Second)
	must(t, q.Enqueue(t.Context(), queue.Job{ID: "resume/run-1"}), "Enqueue again while in flight")
	nothing(t, q, 200*time.Millisecond, "a duplicate of a queued or in-flight job")
	must(t, q.Ack(t.Context(), d), "Ack")
	must(t, q.Enqueue(t.Context(), queue.Job{ID: "resume/run-1"}), "Enqueue after Ack")
	if d := dequeue(t, q, 5*time.Second); d.Attempt != 1 {
		t.Errorf("the id's new job has attempt %d, want 1", d.Attempt)
	}
}

func testOneConsumerEach(t *testing.T, newQueue NewQueue) {
	const jobs = 40
	producer := newQueue(t, long)
	for i := range jobs {
		must(t, producer.Enqueue(t.Context(), queue.Job{ID: fmt.Sprint(i)}), "Enqueue")
	}
	var mu sync.Mutex
	seen := map[string]int{}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var wg sync.WaitGroup
	for range 4 {
		q := newQueue(t, long)
		wg.Go(func() {
			for {
				d, err := q.Dequeue(ctx)
				if err != nil {
					return
				}
				mu.Lock()
				seen[d.ID]++
				n := len(seen)
				mu.Unlock()
				if q.Ack(ctx, d) != nil {
					return
				}
				if n == jobs {
					cancel()
				}
			}
		})
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		cancel()
	}
	wg.Wait()
	if len(seen) != jobs {
		t.Fatalf("%d of %d jobs delivered", len(seen), jobs)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("job %s delivered %d times", id, n)
		}
	}
}

func testClose(t *testing.T, newQueue NewQueue) {
	q := newQueue(t, long)
	errc := make(chan error, 1)
	go func() {
		_, err := q.Dequeue(t.Context())
		errc <- err
	}()
	time.Sleep(50 * time.Millisecond)
	must(t, q.Close(), "Close")
	must(t, q.Close(), "a second Close")
	select {
	case err := <-errc:
		if !errors.Is(err, queue.ErrClosed) {
			t.Errorf("a Dequeue blocked at Close returned %v, want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end a blocked Dequeue")
	}
	if err := q.Enqueue(t.Context(), queue.Job{}); !errors.Is(err, queue.ErrClosed) {
		t.Errorf("Enqueue after Close: %v", err)
	}
}
