// Package bustest is the conformance suite of [bus.Bus]: every adapter's
// test runs it.
package bustest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/runtime/bus"
)

// NewBus returns a bus for one subtest. Every call within one subtest must
// return a bus on the same backend (another connection to the same
// server, as another worker would open; in-process adapters return the
// same value), isolated from other subtests.
type NewBus func(t *testing.T) bus.Bus

// Run runs the suite.
func Run(t *testing.T, newBus NewBus) {
	for _, c := range []struct {
		name string
		fn   func(t *testing.T, newBus NewBus)
	}{
		{"DeliversInOrder", testDeliversInOrder},
		{"EverySubscriberGetsIt", testEverySubscriberGetsIt},
		{"TopicsAreApart", testTopicsAreApart},
		{"LiveOnly", testLiveOnly},
		{"AcrossConnections", testAcrossConnections},
		{"BinaryPayloads", testBinaryPayloads},
		{"ContextEndsSubscription", testContextEndsSubscription},
		{"Close", testClose},
	} {
		t.Run(c.name, func(t *testing.T) { c.fn(t, newBus) })
	}
}

const wait = 5 * time.Second

func must(t *testing.T, err error, what string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func recv(t *testing.T, ch <-chan []byte, what string) string {
	t.Helper()
	select {
	case m, ok := <-ch:
		if !ok {
			t.Fatalf("%s: the subscription closed", what)
		}
		return string(m)
	case <-time.After(wait):
		t.Fatalf("%s: nothing arrived within %s", what, wait)
	}
	return ""
}

func quiet(t *testing.T, ch <-chan []byte, what string) {
	t.Helper()
	select {
	case m, ok := <-ch:
		if ok {
			t.Errorf("%s: got %q, want nothing", what, m)
		}
	case <-time.After(100 * time.Millisecond):
	}
}

func closed(t *testing.T, ch <-chan []byte, what string) {
	t.Helper()
	deadline := time.After(wait)
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return
			}
		case <-deadline:
			t.Fatalf("%s: the channel is still open after %s", what, wait)
		}
	}
}

func testDeliversInOrder(t *testing.T, newBus NewBus) {
	b := newBus(t)
	ch, err := b.Subscribe(t.Context(), "run/1")
	must(t, err, "Subscribe")
	for i := range 200 {
		must(t, b.Publish(t.Context(), "run/1", []byte(fmt.Sprint(i))), "Publish")
	}
	for i := range 200 {
		if got := recv(t, ch, "message"); got != fmt.Sprint(i) {
			t.Fatalf("message %d is %q: order lost", i, got)
		}
	}
}

func testEverySubscriberGetsIt(t *testing.T, newBus NewBus) {
	b := newBus(t)
	a, err := b.Subscribe(t.Context(), "run/1")
	must(t, err, "Subscribe")
	c, err := b.Subscribe(t.Context(), "run/1")
	must(t, err, "Subscribe")
	must(t, b.Publish(t.Context(), "run/1", []byte("hello")), "Publish")
	if recv(t, a, "first subscriber") != "hello" || recv(t, c, "second subscriber") != "hello" {
		t.Error("a subscriber got the wrong message")
	}
}

func testTopicsAreApart(t *testing.T, newBus NewBus) {
	b := newBus(t)
	one, err := b.Subscribe(t.Context(), "run/1")
	must(t, err, "Subscribe")
	two, err := b.Subscribe(t.Context(), "run/2")
	must(t, err, "Subscribe")
	must(t, b.Publish(t.Context(), "run/2", []byte("for two")), "Publish")
	must(t, b.Publish(t.Context(), "nobody/listens", []byte("x")), "Publish without subscribers")
	if got := recv(t, two, "run/2"); got != "for two" {
		t.Errorf("run/2 got %q", got)
	}
	quiet(t, one, "run/1")
}

func testLiveOnly(t *testing.T, newBus NewBus) {
	b := newBus(t)
	must(t, b.Publish(t.Context(), "run/1", []byte("before")), "Publish")
	ch, err := b.Subscribe(t.Context(), "run/1")
	must(t, err, "Subscribe")
	must(t, b.Publish(t.Context(), "run/1", []byte("after")), "Publish")
	if got := recv(t, ch, "subscriber"); got != "after" {
		t.Errorf("got %q: a subscriber must get only what is published after Subscribe", got)
	}
}

func testAcrossConnections(t *testing.T, newBus NewBus) {
	pub, sub := newBus(t), newBus(t)
	ch, err := sub.Subscribe(t.Context(), "run/1")
	must(t, err, "Subscribe")
	must(t, pub.Publish(t.Context(), "run/1", []byte("from another worker")), "Publish")
	if got := recv(t, ch, "subscriber on the other bus"); got != "from another worker" {
		t.Errorf("got %q", got)
	}
}

func testBinaryPayloads(t *testing.T, newBus NewBus) {
	b := newBus(t)
	ch, err := b.Subscribe(t.Context(), "run/1")
	must(t, err, "Subscribe")
	payload := []byte{0, 1, 2, 0xff, '\n', 0}
	must(t, b.Publish(t.Context(), "run/1", payload), "Publish")
	must(t, b.Publish(t.Context(), "run/1", nil), "Publish empty")
	if got := recv(t, ch, "binary"); got != string(payload) {
		t.Errorf("got %q, want %q", got, payload)
	}
	if got := recv(t, ch, "empty"); got != "" {
		t.Errorf("got %q, want empty", got)
	}
}

func testContextEndsSubscription(t *testing.T, newBus NewBus) {
	b := newBus(t)
	ctx, cancel := context.WithCancel(t.Context())
	ch, err := b.Subscribe(ctx, "run/1")
	must(t, err, "Subscribe")
	other, err := b.Subscribe(t.Context(), "run/1")
	must(t, err, "Subscribe")
	cancel()
	closed(t, ch, "after its ctx ended")
	must(t, b.Publish(t.Context(), "run/1", []byte("still")), "Publish")
	if got := recv(t, other, "the other subscriber"); got != "still" {
		t.Errorf("got %q", got)
	}
	done, stop := context.WithCancel(t.Context())
	stop()
	if _, err := b.Subscribe(done, "run/1"); !errors.Is(err, context.Canceled) {
		t.Errorf("Subscribe with a canceled ctx: got %v, want context.Canceled", err)
	}
}

func testClose(t *testing.T, newBus NewBus) {
	b := newBus(t)
	ch, err := b.Subscribe(t.Context(), "run/1")
	must(t, err, "Subscribe")
	must(t, b.Close(), "Close")
	must(t, b.Close(), "a second Close")
	closed(t, ch, "after Close")
	if err := b.Publish(t.Context(), "run/1", nil); !errors.Is(err, bus.ErrClosed) {
		t.Errorf("Publish after Close: got %v, want ErrClosed", err)
	}
	if _, err := b.Subscribe(t.Context(), "run/1"); !errors.Is(err, bus.ErrClosed) {
		t.Errorf("Subscribe after Close: got %v, want ErrClosed", err)
	}
}
