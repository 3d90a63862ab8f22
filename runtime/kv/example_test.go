package kv_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
)

// A run lock: one run per thread, across every worker sharing the store.
func ExampleAcquireLease() {
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	defer store.Close()

	lease, err := kv.AcquireLease(ctx, store, "run/thread-42", "run-1", 30*time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(lease.Owner(), "holds", lease.Key())

	// Another run of the same thread is turned away while run-1 holds it.
	_, err = kv.AcquireLease(ctx, store, "run/thread-42", "run-2", 30*time.Second)
	var locked *kv.LockedError
	if errors.As(err, &locked) {
		fmt.Println("run-2 is locked out:", errors.Is(err, kv.ErrLocked), "- held by", locked.Owner)
	}

	// Renew in the background while working; stop working if it is lost.
	lost := lease.KeepAlive(ctx, 10*time.Second)
	select {
	case err := <-lost:
		fmt.Println("lost the run lock:", err)
		return
	default: // the run's work goes here
	}

	if err := lease.Release(ctx); err != nil {
		fmt.Println(err)
	}
	_, open := <-lost
	fmt.Println("keep-alive stopped:", !open)

	next, err := kv.AcquireLease(ctx, store, "run/thread-42", "run-2", 30*time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(next.Owner(), "holds", next.Key())
	// Output:
	// run-1 holds run/thread-42
	// run-2 is locked out: true - held by run-1
	// keep-alive stopped: true
	// run-2 holds run/thread-42
}
