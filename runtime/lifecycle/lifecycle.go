package lifecycle

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/sandbox"
)

// ErrNoThread: a sandbox call was made outside a thread (a ctx without
// WithThread or WithRun).
var ErrNoThread = errors.New("runtime: no thread in context (use lifecycle.WithThread or WithRun)")

// ThreadSandbox is the sandbox of a thread (or run) as a call got it, and
// what happened to get it.
type ThreadSandbox struct {
	// Sandbox is the sandbox itself.
	Sandbox sandbox.Sandbox
	// Fresh: made by this call.
	Fresh bool
	// Lost: fresh because the previous sandbox ended, its files with it.
	Lost bool
	// Restored: fresh because the previous sandbox ended, and the provider
	// brought the work folder back.
	Restored bool
	// Note is the note for the model: LostNote, RestoredNote, or "".
	Note string
}

// note returns the note of a fresh sandbox's flags.
func note(lost, restored bool) string {
	switch {
	case restored:
		return RestoredNote
	case lost:
		return LostNote
	}
	return ""
}

// record is what the kv keeps about a thread's (or its run's) sandbox.
type record struct {
	SandboxID string    `json:"sandboxId"`
	Provider  string    `json:"provider"`
	ThreadID  string    `json:"threadId"`
	RunID     string    `json:"runId,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	MaxEndAt  time.Time `json:"maxEndAt"`
	UsedAt    time.Time `json:"usedAt"`
}

// scope is where a call's sandbox is recorded.
type scope struct {
	kind     Scope
	threadID string
	runID    string
}

func (s scope) key() string { return recordKey(s.kind, s.threadID) }

func recordKey(kind Scope, threadID string) string {
	return "sandbox/" + string(kind) + "/" + threadID
}

// SandboxRecordPrefix is the kv prefix of every sandbox record, for tools
// that list the live sandboxes (`agentenkit sandboxes list`).
const SandboxRecordPrefix = "sandbox/"

func (m *Manager) scopeOf(ctx context.Context) (scope, error) {
	s := scope{kind: m.cfg.SandboxScope, threadID: ThreadID(ctx), runID: RunID(ctx)}
	if s.threadID == "" {
		return s, ErrNoThread
	}
	if s.kind == ScopeRun && s.runID == "" {
		return s, errors.New("runtime: run-scoped sandboxes need a run in context (runtime.WithRun)")
	}
	return s, nil
}

// SandboxFor returns the sandbox of ctx's thread (or run), making it on the
// first call and a fresh one when the last has ended. Each call is a use: it
// pushes the sandbox's end back, and inside a tool call (CallTool) the end
// keeps being pushed back until the call returns, and once more then.
func (m *Manager) SandboxFor(ctx context.Context) (ThreadSandbox, error) {
	if m.ports.Sandbox == nil {
		return ThreadSandbox{}, errors.New("runtime: no sandbox provider (RuntimeOptions.Tools.Sandbox)")
	}
	sc, err := m.scopeOf(ctx)
	if err != nil {
		return ThreadSandbox{}, err
	}
	lk := m.keyLock(sc.key())
	lk.Lock()
	defer lk.Unlock()
	h, err := m.acquire(ctx, sc)
	if err != nil {
		return ThreadSandbox{}, err
	}
	m.markUsed(ctx, sc, h.Sandbox)
	return h, nil
}

// withSandbox runs fn with ctx's sandbox. When fn fails because the sandbox
// ended part way (an error matching sandbox.ErrGone), it runs fn once more on
// a fresh sandbox, which says Lost (or Restored).
func (m *Manager) withSandbox(ctx context.Context, fn func(ThreadSandbox) error) error {
	h, err := m.SandboxFor(ctx)
	if err != nil {
		return err
	}
	err = fn(h)
	if !errors.Is(err, sandbox.ErrGone) {
		return err
	}
	fresh, ferr := m.SandboxFor(ctx)
	if ferr != nil {
		return errors.Join(err, ferr)
	}
	if !fresh.Fresh {
		// The record still names a live sandbox: the error was fn's own.
		return err
	}
	return fn(fresh)
}

// acquire is SandboxFor under the record's in-process lock.
func (m *Manager) acquire(ctx context.Context, sc scope) (ThreadSandbox, error) {
	old, oldRaw, err := m.readRecord(ctx, sc.key())
	if err != nil {
		return ThreadSandbox{}, err
	}
	now := m.cfg.Now()
	ended, note := false, true
	if old != nil && sc.kind == ScopeRun && old.RunID != sc.runID {
		// A sandbox left by an earlier run: end it. The new run starts
		// fresh, with nothing to say about it.
		m.destroy(ctx, old)
		old, note = nil, false
	}
	if old != nil {
		if !now.Before(old.MaxEndAt) {
			// Past its max lifetime: replaced now and destroyed once the
			// fresh one exists, so a restoring provider can still read it.
			ended = true
			defer m.destroy(ctx, old)
		} else {
			sb, err := m.ports.Sandbox.Connect(ctx, old.SandboxID)
			switch {
			case err == nil:
				if err := m.use(ctx, sb, old, oldRaw, now); err != nil {
					if !errors.Is(err, sandbox.ErrGone) {
						return ThreadSandbox{}, err
					}
					ended = true
					break
				}
				return ThreadSandbox{Sandbox: sb}, nil
			case errors.Is(err, sandbox.ErrGone):
				ended = true
			default:
				return ThreadSandbox{}, fmt.Errorf("runtime: connect to sandbox %s of thread %s: %w", old.SandboxID, sc.threadID, err)
			}
		}
	}
	return m.create(ctx, sc, old, oldRaw, ended && note)
}

// use pushes the sandbox's end back and records the use.
func (m *Manager) use(ctx context.Context, sb sandbox.Sandbox, rec *record, raw []byte, now time.Time) error {
	if err := sb.SetTimeout(ctx, m.idleFrom(rec, now)); err != nil {
		return err
	}
	next := *rec
	next.UsedAt = now
	err := m.writeRecord(ctx, &next, raw, now)
	if errors.Is(err, ErrRecordChanged) {
		// Another worker used the same sandbox meanwhile (two commands on
		// one thread at once): its write records the use too.
		if cur, _, rerr := m.readRecord(ctx, recordKeyOf(rec)); rerr == nil && cur != nil && cur.SandboxID == rec.SandboxID {
			return nil
		}
	}
	return err
}

// recordKeyOf is the key rec is kept under.
func recordKeyOf(rec *record) string {
	if rec.RunID != "" {
		return recordKey(ScopeRun, rec.ThreadID)
	}
	return recordKey(ScopeThread, rec.ThreadID)
}

// idleFrom is how long the sandbox may now idle: SandboxIdleTTL, cut short
// by its max lifetime.
func (m *Manager) idleFrom(rec *record, now time.Time) time.Duration {
	return max(time.Second, min(m.cfg.SandboxIdleTTL, rec.MaxEndAt.Sub(now)))
}

// create makes a fresh sandbox for sc and records it in place of old.
func (m *Manager) create(ctx context.Context, sc scope, old *record, oldRaw []byte, replacing bool) (ThreadSandbox, error) {
	now := m.cfg.Now()
	opts := m.createOptions(sc)
	restores := false
	if r, ok := m.ports.Sandbox.(sandbox.WorkdirRestorer); ok && r.RestoresWorkdir() {
		restores = true
		if replacing && old != nil {
			opts.RestoreFrom = old.SandboxID
		}
	}
	sb, err := m.ports.Sandbox.Create(ctx, opts)
	if err != nil && opts.RestoreFrom != "" && errors.Is(err, sandbox.ErrGone) {
		// Nothing left to restore (destroyed, or gone too long): a fresh,
		// empty sandbox, and the model is told its files are lost.
		opts.RestoreFrom, restores = "", false
		sb, err = m.ports.Sandbox.Create(ctx, opts)
	}
	if err != nil {
		return ThreadSandbox{}, fmt.Errorf("runtime: create a sandbox for thread %s: %w", sc.threadID, err)
	}
	rec := &record{
		SandboxID: sb.ID(),
		Provider:  m.ports.Sandbox.Name(),
		ThreadID:  sc.threadID,
		RunID:     sc.runID,
		CreatedAt: now,
		MaxEndAt:  now.Add(m.cfg.SandboxMaxLifetime),
		UsedAt:    now,
	}
	if sc.kind == ScopeThread {
		rec.RunID = ""
	}
	if err := m.writeRecord(ctx, rec, oldRaw, now); err != nil {
		_ = sb.Destroy(context.WithoutCancel(ctx))
		return ThreadSandbox{}, err
	}
	h := ThreadSandbox{Sandbox: sb, Fresh: true}
	if replacing {
		h.Restored, h.Lost = restores, !restores
		h.Note = note(h.Lost, h.Restored)
	}
	return h, nil
}

// createOptions merges SandboxDefaults with what the runtime sets itself.
func (m *Manager) createOptions(sc scope) sandbox.CreateSandboxOptions {
	opts := m.cfg.SandboxDefaults
	opts.Metadata = maps.Clone(opts.Metadata)
	if opts.Metadata == nil {
		opts.Metadata = map[string]string{}
	}
	opts.Metadata["agentenkit.thread"] = sc.threadID
	opts.Metadata["agentenkit.scope"] = string(sc.kind)
	if sc.kind == ScopeRun {
		opts.Metadata["agentenkit.run"] = sc.runID
	}
	if dir := m.cfg.SandboxStateDir; path.IsAbs(dir) {
		// Where the tools' files of each sandbox live (StateDir), so that
		// an adapter whose sandboxes share the host's folders (local)
		// removes them with the sandbox.
		opts.Metadata["agentenkit.stateDir"] = path.Clean(dir)
	}
	opts.Envs = maps.Clone(opts.Envs)
	opts.Timeout = min(m.cfg.SandboxIdleTTL, m.cfg.SandboxMaxLifetime)
	return opts
}

// recordTTL keeps a record past its sandbox's max lifetime, so the next call
// after the end can still tell the model the old sandbox is gone.
func (m *Manager) recordTTL(rec *record, now time.Time) time.Duration {
	return max(time.Second, rec.MaxEndAt.Sub(now)+m.cfg.SandboxIdleTTL)
}

func (m *Manager) readRecord(ctx context.Context, key string) (*record, []byte, error) {
	raw, err := m.kv.Get(ctx, key)
	if errors.Is(err, kv.ErrNotFound) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("runtime: read %s: %w", key, err)
	}
	var rec record
	if err := json.Unmarshal(raw, &rec); err != nil {
		// A damaged record names no sandbox we can reach: start afresh.
		return nil, raw, nil
	}
	return &rec, raw, nil
}

// ErrRecordChanged: another worker replaced the sandbox record between this
// worker's read and write (which the run lock should make impossible).
var ErrRecordChanged = errors.New("runtime: the thread's sandbox record changed under this worker")

// writeRecord replaces the record that was oldRaw (nil: none) by rec.
func (m *Manager) writeRecord(ctx context.Context, rec *record, oldRaw []byte, now time.Time) error {
	raw, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	key := recordKeyOf(rec)
	var ok bool
	if oldRaw == nil {
		ok, err = m.kv.SetIfAbsent(ctx, key, raw, m.recordTTL(rec, now))
	} else if bytes.Equal(oldRaw, raw) {
		ok, err = m.kv.Expire(ctx, key, m.recordTTL(rec, now))
	} else {
		ok, err = m.kv.CompareAndSwap(ctx, key, oldRaw, raw, m.recordTTL(rec, now))
	}
	if err != nil {
		return fmt.Errorf("runtime: write %s: %w", key, err)
	}
	if !ok {
		return fmt.Errorf("%w (%s)", ErrRecordChanged, key)
	}
	return nil
}

// destroy ends a recorded sandbox; one already gone is fine.
func (m *Manager) destroy(ctx context.Context, rec *record) {
	ctx = context.WithoutCancel(ctx)
	sb, err := m.ports.Sandbox.Connect(ctx, rec.SandboxID)
	if err == nil {
		_ = sb.Destroy(ctx)
	}
}

// endScope ends and forgets the sandbox recorded under key.
func (m *Manager) endScope(ctx context.Context, key string) error {
	lk := m.keyLock(key)
	lk.Lock()
	defer lk.Unlock()
	rec, _, err := m.readRecord(ctx, key)
	if err != nil {
		return err
	}
	if rec != nil && m.ports.Sandbox != nil {
		m.destroy(ctx, rec)
	}
	return m.kv.Delete(ctx, key)
}

// EndThread ends the thread's sandboxes (of either scope) and forgets
// them, with the thread's other kv records (its runs' tool-use counts).
// The agent loop's DeleteThread calls it.
func (m *Manager) EndThread(ctx context.Context, threadID string) error {
	for _, kind := range []Scope{ScopeThread, ScopeRun} {
		if err := m.endScope(ctx, recordKey(kind, threadID)); err != nil {
			return err
		}
	}
	prefix := toolUsesPrefix(threadID)
	keys, err := m.kv.Keys(ctx, prefix)
	if err != nil {
		return fmt.Errorf("runtime: list the kv records of thread %s: %w", threadID, err)
	}
	for _, k := range keys {
		if strings.Count(strings.TrimPrefix(k, prefix), "/") != 1 {
			continue // a thread whose id starts with this one's and a slash
		}
		if err := m.kv.Delete(ctx, k); err != nil {
			return fmt.Errorf("runtime: delete %s: %w", k, err)
		}
	}
	return nil
}

// StateDir returns the folder (inside sb) where the tools keep their own
// files: SandboxStateDir inside the work folder when relative, else a folder
// of its own per sandbox under it.
func (m *Manager) StateDir(ctx context.Context, sb sandbox.Sandbox) (string, error) {
	dir := m.cfg.SandboxStateDir
	if len(dir) > 0 && dir[0] == '/' {
		return sandbox.ResolvePath("/", dir+"/"+sb.ID()), nil
	}
	info, err := sb.GetInfo(ctx)
	if err != nil {
		return "", err
	}
	return sandbox.ResolvePath(info.Workdir, dir), nil
}
