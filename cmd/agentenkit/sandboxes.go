package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/sandbox"
)

func cmdSandboxes(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "sandboxes", "sandboxes list [--all] | kill ID", `
list: the sandboxes the threads of this machine have (the kv in
$AGENTENKIT_STATE_DIR): id, provider, thread, scope, age and when it ends by
itself unless used again. --all also shows those that have ended.

kill ID: ends the sandbox ID (or the sandbox of the thread named ID) and
forgets it; the thread's next command starts in a fresh sandbox.`)
	all := fs.Bool("all", false, "list: also the sandboxes that have ended but are still recorded")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	switch fs.Arg(0) {
	case "list", "ls":
		if fs.NArg() > 1 {
			// Flags may follow the subcommand: sandboxes list --all.
			sub := flag.NewFlagSet("sandboxes list", flag.ContinueOnError)
			sub.SetOutput(e.stderr)
			sub.BoolVar(all, "all", *all, "also the sandboxes that have ended")
			sub.Usage = fs.Usage
			if code, ok := parse(sub, fs.Args()[1:]); !ok {
				return code
			}
			if sub.NArg() > 0 {
				return usageError(e, fs, fmt.Sprintf("list takes no arguments (got %q)", strings.Join(sub.Args(), " ")))
			}
		}
		return sandboxesList(ctx, e, *all)
	case "kill", "rm":
		if fs.NArg() != 2 {
			return usageError(e, fs, "kill takes one sandbox id (agentenkit sandboxes list shows them)")
		}
		return sandboxesKill(ctx, e, fs.Arg(1))
	case "":
		return usageError(e, fs, "say what to do: list or kill ID")
	}
	return usageError(e, fs, fmt.Sprintf("unknown subcommand %q (list or kill)", fs.Arg(0)))
}

// record is the runtime's record of a sandbox in the kv (its JSON).
type record struct {
	SandboxID string    `json:"sandboxId"`
	Provider  string    `json:"provider"`
	ThreadID  string    `json:"threadId"`
	RunID     string    `json:"runId,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	MaxEndAt  time.Time `json:"maxEndAt"`
	UsedAt    time.Time `json:"usedAt"`

	key string
	raw []byte
}

// endsAt is when the sandbox ends by itself unless used again: its idle
// TTL after its last use, never past its max lifetime.
func (r record) endsAt() time.Time {
	end := r.UsedAt.Add(lifecycle.DefaultSandboxIdleTTL)
	if !r.MaxEndAt.IsZero() && r.MaxEndAt.Before(end) {
		end = r.MaxEndAt
	}
	return end
}

// scope is the key's scope: thread or run.
func (r record) scope() string {
	rest := strings.TrimPrefix(r.key, lifecycle.SandboxRecordPrefix)
	scope, _, _ := strings.Cut(rest, "/")
	return scope
}

// readRecords returns the sandbox records in the kv, oldest first.
func readRecords(ctx context.Context, store kv.Store) ([]record, error) {
	keys, err := store.Keys(ctx, lifecycle.SandboxRecordPrefix)
	if err != nil {
		return nil, err
	}
	var recs []record
	for _, k := range keys {
		raw, err := store.Get(ctx, k)
		if errors.Is(err, kv.ErrNotFound) {
			continue // expired meanwhile
		}
		if err != nil {
			return nil, err
		}
		var r record
		if json.Unmarshal(raw, &r) != nil || r.SandboxID == "" {
			continue // not a record the runtime could use either
		}
		r.key, r.raw = k, raw
		recs = append(recs, r)
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].CreatedAt.Before(recs[j].CreatedAt) })
	return recs, nil
}

func sandboxesList(ctx context.Context, e *env, all bool) int {
	store, err := openKv()
	if err != nil {
		return fail(e, err)
	}
	defer store.Close()
	recs, err := readRecords(ctx, store)
	if err != nil {
		return fail(e, err)
	}
	now := time.Now()
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tPROVIDER\tTHREAD\tSCOPE\tAGE\tENDS")
	shown, ended := 0, 0
	for _, r := range recs {
		end := r.endsAt()
		endText := "in " + ago(end.Sub(now)) + " (" + end.Local().Format("15:04") + ")"
		if !end.After(now) {
			ended++
			if !all {
				continue
			}
			endText = "ended " + ago(now.Sub(end)) + " ago"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.SandboxID, r.Provider, r.ThreadID, r.scope(), ago(now.Sub(r.CreatedAt)), endText)
		shown++
	}
	if shown == 0 {
		fmt.Fprintln(e.stderr, "agentenkit: no live sandboxes (agentenkit run --thread T -- COMMAND makes one)")
		if ended > 0 {
			fmt.Fprintf(e.stderr, "agentenkit: %d ended ones are still recorded (--all shows them)\n", ended)
		}
		return 0
	}
	tw.Flush()
	return 0
}

// ago renders a duration the way a listing does: 45s, 12m, 3h5m, 2d4h.
func ago(d time.Duration) string {
	d = max(d, 0).Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh%dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd%dh", int(d.Hours())/24, int(d.Hours())%24)
}

// idDestroyer is a provider that ends a sandbox by id without connecting
// to it (the wasm adapter's DestroySandbox).
type idDestroyer interface {
	// DestroySandbox ends sandbox id; one already gone is not an error.
	DestroySandbox(ctx context.Context, id string) error
}

func sandboxesKill(ctx context.Context, e *env, id string) int {
	store, err := openKv()
	if err != nil {
		return fail(e, err)
	}
	defer store.Close()
	recs, err := readRecords(ctx, store)
	if err != nil {
		return fail(e, err)
	}
	var found []record
	for _, r := range recs {
		if r.SandboxID == id {
			found = append(found, r)
		}
	}
	if len(found) == 0 {
		for _, r := range recs {
			if r.ThreadID == id {
				found = append(found, r)
			}
		}
	}
	if len(found) == 0 {
		fmt.Fprintf(e.stderr, "agentenkit: sandbox %s is gone: no thread has it (ended and forgotten, or never made here)\n", id)
		fmt.Fprintln(e.stderr, "hint: `agentenkit sandboxes list` shows the live ones")
		return 1
	}
	code := 0
	for _, r := range found {
		p, err := newProvider(ctx, e, r.Provider, store)
		if err != nil {
			code = fail(e, fmt.Errorf("sandbox %s of thread %s: %w", r.SandboxID, r.ThreadID, err))
			continue
		}
		if d, ok := p.(idDestroyer); ok {
			// Nothing of the sandbox is read first: a damaged one ends too.
			if err := d.DestroySandbox(ctx, r.SandboxID); err != nil && !errors.Is(err, sandbox.ErrGone) {
				code = fail(e, fmt.Errorf("end sandbox %s: %w", r.SandboxID, err))
				continue
			}
			fmt.Fprintf(e.stdout, "killed sandbox %s (%s, thread %s)\n", r.SandboxID, r.Provider, r.ThreadID)
			if _, err := store.CompareAndDelete(ctx, r.key, r.raw); err != nil {
				code = fail(e, fmt.Errorf("forget sandbox %s: %w", r.SandboxID, err))
			}
			continue
		}
		sb, err := p.Connect(ctx, r.SandboxID)
		switch {
		case errors.Is(err, sandbox.ErrGone):
			fmt.Fprintf(e.stdout, "sandbox %s (thread %s) had ended already; forgot it\n", r.SandboxID, r.ThreadID)
		case err != nil:
			code = fail(e, fmt.Errorf("connect to sandbox %s: %w", r.SandboxID, err))
			continue
		default:
			if err := sb.Destroy(ctx); err != nil && !errors.Is(err, sandbox.ErrGone) {
				code = fail(e, fmt.Errorf("end sandbox %s: %w", r.SandboxID, err))
				continue
			}
			fmt.Fprintf(e.stdout, "killed sandbox %s (%s, thread %s)\n", r.SandboxID, r.Provider, r.ThreadID)
		}
		if _, err := store.CompareAndDelete(ctx, r.key, r.raw); err != nil {
			code = fail(e, fmt.Errorf("forget sandbox %s: %w", r.SandboxID, err))
		}
	}
	return code
}
