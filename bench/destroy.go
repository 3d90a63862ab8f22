package bench

import (
	"cmp"
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// destroyTimeout bounds each Destroy the bench makes once a row is
// measured: a daemon that stops answering (dockerd did, removing 100
// containers at once) must not hold the whole run.
const destroyTimeout = 2 * time.Minute

// destroy ends sb, unaffected by ctx's cancellation but within
// destroyTimeout.
func destroy(ctx context.Context, sb sandbox.Sandbox) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), destroyTimeout)
	defer cancel()
	return sb.Destroy(ctx)
}

// destroyAll ends the sandboxes of sbs (nil ones skipped) at once and
// returns what the row's note should say when some could not be:
// "" when all were, else how many and the first error.
func destroyAll(ctx context.Context, sbs []sandbox.Sandbox) string {
	var wg sync.WaitGroup
	errs := make([]error, len(sbs))
	made := 0
	for i, sb := range sbs {
		if sb != nil {
			made++
			wg.Go(func() { errs[i] = destroy(ctx, sb) })
		}
	}
	wg.Wait()
	failed, first := failures(errs)
	if failed == 0 {
		return ""
	}
	return fmt.Sprintf(", %d of %d sandboxes not destroyed after (within %s): %v", failed, made, destroyTimeout, first)
}

// failures counts the errors of errs that are not nil and returns the
// first of them.
func failures(errs []error) (failed int, first error) {
	for _, err := range errs {
		if err != nil {
			failed++
			first = cmp.Or(first, err)
		}
	}
	return failed, first
}
