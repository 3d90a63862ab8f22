package bench

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/sandbox"
)

// destroyCounting is a sandbox whose Destroy returns err and counts its calls.
type destroyCounting struct {
	sandbox.Sandbox
	err   error
	calls *int
}

func (d destroyCounting) Destroy(ctx context.Context) error {
	*d.calls++
	if _, ok := ctx.Deadline(); !ok {
		return errors.New("Destroy without a deadline")
	}
	return d.err
}

func TestDestroyAll(t *testing.T) {
	wedged := errors.New("daemon wedged")
	for _, tc := range []struct {
		name string
		errs []error // one sandbox per entry; nil: it ends
		want string  // "" or a part of the note
	}{
		{name: "all ended", errs: []error{nil, nil, nil}},
		{name: "none", errs: nil},
		{name: "two of three left", errs: []error{wedged, nil, context.DeadlineExceeded}, want: ", 2 of 3 sandboxes not destroyed after"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := make([]int, len(tc.errs))
			sbs := make([]sandbox.Sandbox, len(tc.errs)+1) // and a nil one, skipped
			for i, err := range tc.errs {
				sbs[i] = destroyCounting{err: err, calls: &calls[i]}
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // the row's context may be done: Destroy still runs
			note := destroyAll(ctx, sbs)
			for i, c := range calls {
				if c != 1 {
					t.Errorf("sandbox %d: Destroy called %d times", i, c)
				}
			}
			if tc.want == "" && note != "" || !strings.Contains(note, tc.want) {
				t.Fatalf("note %q, want %q", note, tc.want)
			}
			if tc.want != "" && !strings.Contains(note, "daemon wedged") && !strings.Contains(note, "deadline") {
				t.Fatalf("note %q names no error", note)
			}
		})
	}
}
