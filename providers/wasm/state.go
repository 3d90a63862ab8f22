package wasm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/vfs"
)

// liveRecord is wasm/ID/live: the sandbox exists while it does.
type liveRecord struct {
	CreatedAt time.Time `json:"createdAt"`
	HardEnd   time.Time `json:"hardEnd"`
	EndAt     time.Time `json:"endAt"`
	// Idle is how far each use pushes EndAt: the create Timeout, then the
	// last SetTimeout.
	Idle     time.Duration     `json:"idle"`
	Envs     map[string]string `json:"envs,omitempty"`
	Metadata map[string]string `json:"metadata,omitempty"`
	Workdir  string            `json:"workdir"`
	MaxBytes int64             `json:"maxBytes"`
	MaxFiles int               `json:"maxFiles"`
	MemoryMB int               `json:"memoryMB"` // per instance
	CmdMemMB int               `json:"commandMemoryMB"`
	MaxProcs int               `json:"maxProcs"`
	Network  sandbox.Network   `json:"network,omitzero"`

	raw []byte // as read from the kv, for compare-and-swap
}

// memPages is the per-instance memory cap in 64 KiB pages.
func (rec *liveRecord) memPages() uint32 { return uint32(rec.MemoryMB) * 16 }

func liveKey(id string) string   { return "wasm/" + id + "/live" }
func prefixKey(id string) string { return "wasm/" + id + "/" }

// objectTTL keeps a snapshot until the hard end plus the restore window.
func (p *Provider) objectTTL(rec *liveRecord) time.Duration {
	return max(time.Second, time.Until(rec.HardEnd)+p.opts.RestoreWindow)
}

// readLive reads the live record: ErrGone when it is missing, expired or
// past the hard end.
func (p *Provider) readLive(ctx context.Context, id string) (*liveRecord, error) {
	raw, err := p.kv.Get(ctx, liveKey(id))
	if errors.Is(err, kv.ErrNotFound) {
		return nil, sandbox.Gone(Name, id)
	}
	if err != nil {
		return nil, fmt.Errorf("wasm: read sandbox %s: %w", id, err)
	}
	var rec liveRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("wasm: sandbox %s: damaged record: %w", id, err)
	}
	rec.raw = raw
	now := time.Now()
	if !now.Before(rec.HardEnd) {
		_ = p.kv.Delete(context.WithoutCancel(ctx), liveKey(id))
		return nil, fmt.Errorf("wasm sandbox %q reached its max lifetime at %s: %w", id, rec.HardEnd.Format(time.RFC3339), sandbox.ErrGone)
	}
	if !now.Before(rec.EndAt) {
		return nil, fmt.Errorf("wasm sandbox %q ended at %s: %w", id, rec.EndAt.Format(time.RFC3339), sandbox.ErrGone)
	}
	return &rec, nil
}

// writeLive writes the live record with its TTL (to EndAt). fresh makes
// it only if absent; otherwise it replaces rec as read (rec.raw), and
// reports false when the record changed or went away meanwhile.
func (p *Provider) writeLive(ctx context.Context, id string, rec *liveRecord, fresh bool) (bool, error) {
	raw, err := json.Marshal(rec)
	if err != nil {
		return false, err
	}
	ttl := max(time.Millisecond, time.Until(rec.EndAt))
	var ok bool
	if fresh {
		ok, err = p.kv.SetIfAbsent(ctx, liveKey(id), raw, ttl)
		if err == nil && !ok {
			err = fmt.Errorf("sandbox id %s already taken", id)
		}
	} else {
		ok, err = p.kv.CompareAndSwap(ctx, liveKey(id), rec.raw, raw, ttl)
	}
	if err != nil {
		return false, fmt.Errorf("wasm: record sandbox %s: %w", id, err)
	}
	rec.raw = raw
	return ok, nil
}

// update changes the live record with fn and writes it, again on a
// concurrent change; ErrGone when the sandbox is gone.
func (p *Provider) update(ctx context.Context, id string, fn func(rec *liveRecord) bool) (*liveRecord, error) {
	for range 8 {
		rec, err := p.readLive(ctx, id)
		if err != nil {
			return nil, err
		}
		old := rec.raw
		if !fn(rec) {
			return rec, nil
		}
		rec.raw = old
		ok, err := p.writeLive(ctx, id, rec, false)
		if err != nil || ok {
			return rec, err
		}
	}
	return nil, fmt.Errorf("wasm: sandbox %s: its record keeps changing", id)
}

// state is a provider's copy of one sandbox: its files as of a snapshot
// generation, and the commands running on them.
type state struct {
	id   string
	snap *vfs.Snapshotter

	mu      sync.Mutex
	fsys    *vfs.FS
	rec     *liveRecord
	cancels map[*context.CancelFunc]struct{}
	gone    bool // destroyed or ended: nothing is saved any more
	shells  shellPool

	changes atomic.Uint64 // bumped by every change to the files
	saveMu  sync.Mutex
	saved   uint64 // changes covered by the last save

	netMu sync.Mutex
	net   []*netSession // the running commands' networks, oldest first
}

func (p *Provider) newState(id string) *state {
	return &state{
		id:      id,
		snap:    vfs.NewSnapshotter(p.kv, prefixKey(id)),
		cancels: map[*context.CancelFunc]struct{}{},
	}
}

func (st *state) endHint() time.Time {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.rec == nil {
		return time.Time{}
	}
	return st.rec.EndAt
}

// end stops the state's commands and closes its idle shells; it saves
// nothing after.
func (p *Provider) end(st *state) {
	st.mu.Lock()
	st.gone = true
	for c := range st.cancels {
		(*c)()
	}
	idle := p.dropShellsLocked(st)
	st.mu.Unlock()
	p.retireShells(idle)
}

// open returns the sandbox's current files and record: ErrGone when it is
// gone; the cached copy when its generation is the kv's, else the snapshot
// loaded. use pushes the end back.
func (p *Provider) open(ctx context.Context, id string, use bool) (*state, *liveRecord, error) {
	rec, err := p.readLive(ctx, id)
	if err != nil {
		if errors.Is(err, sandbox.ErrGone) {
			p.forget(id)
		}
		return nil, nil, err
	}
	p.mu.Lock()
	st := p.cache[id]
	if st == nil {
		st = p.newState(id)
		p.cache[id] = st
	}
	p.mu.Unlock()

	m, err := st.snap.StoredManifest(ctx)
	switch {
	case errors.Is(err, vfs.ErrNoSnapshot):
		// A live record without files: destroyed under us.
		return nil, nil, sandbox.Gone(Name, id)
	case err != nil:
		return nil, nil, loadError(id, err)
	}
	st.mu.Lock()
	stale := st.fsys == nil || m.Generation > st.snap.Generation()
	st.mu.Unlock()
	if stale {
		st.saveMu.Lock() // no save of ours in between
		st.mu.Lock()
		if st.fsys == nil || m.Generation > st.snap.Generation() {
			fsys, _, err := st.snap.Load(ctx, vfs.Options{MaxBytes: rec.MaxBytes, MaxFiles: rec.MaxFiles})
			if err != nil {
				st.mu.Unlock()
				st.saveMu.Unlock()
				if errors.Is(err, vfs.ErrNoSnapshot) {
					return nil, nil, sandbox.Gone(Name, id)
				}
				return nil, nil, loadError(id, err)
			}
			st.fsys = fsys
			st.saved = st.changes.Load()
		}
		st.mu.Unlock()
		st.saveMu.Unlock()
	}
	if use {
		rec, err = p.use(ctx, id, rec)
		if err != nil {
			return nil, nil, err
		}
	}
	st.mu.Lock()
	st.rec = rec
	st.mu.Unlock()
	return st, rec, nil
}

// loadError is the error of a snapshot that cannot be loaded: a damaged
// one is not gone (nothing replaces it with an empty sandbox), and only
// Destroy ends it.
func loadError(id string, err error) error {
	if errors.Is(err, vfs.ErrDamaged) {
		return fmt.Errorf("wasm: sandbox %s cannot be loaded: %w (its files are kept as they are; `agentenkit sandboxes kill %s` or Destroy ends it)", id, err, id)
	}
	return fmt.Errorf("wasm: load sandbox %s: %w", id, err)
}

// use pushes the end back to now + Idle (not past the hard end). It writes
// only when that moves the end by more than a little, to spare the kv.
func (p *Provider) use(ctx context.Context, id string, rec *liveRecord) (*liveRecord, error) {
	end := minTime(time.Now().Add(rec.Idle), rec.HardEnd)
	if end.Sub(rec.EndAt) <= rec.Idle/20 {
		return rec, nil
	}
	next := *rec
	next.EndAt = end
	ok, err := p.writeLive(ctx, id, &next, false)
	if err != nil {
		return nil, err
	}
	if !ok {
		// Changed meanwhile (SetTimeout, another worker's use): that one
		// stands; gone is gone.
		return p.readLive(ctx, id)
	}
	return &next, nil
}

// files returns the current filesystem of st.
func (st *state) files() *vfs.FS {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.fsys
}

// changed notes a change to the files.
func (st *state) changed() { st.changes.Add(1) }

// save writes a snapshot when the files changed since the last one.
func (p *Provider) save(ctx context.Context, st *state) error {
	st.saveMu.Lock()
	defer st.saveMu.Unlock()
	seq := st.changes.Load()
	if seq <= st.saved {
		return nil
	}
	st.mu.Lock()
	fsys, rec, gone := st.fsys, st.rec, st.gone
	st.mu.Unlock()
	if fsys == nil || rec == nil || gone {
		return nil
	}
	if _, err := st.snap.Save(context.WithoutCancel(ctx), fsys, p.objectTTL(rec)); err != nil {
		if errors.Is(err, vfs.ErrNoSnapshot) {
			return fmt.Errorf("wasm: save sandbox %s: destroyed meanwhile: %w", st.id, sandbox.ErrGone)
		}
		return fmt.Errorf("wasm: save sandbox %s: %w", st.id, err)
	}
	st.saved = seq
	return nil
}

// restore loads the snapshot of the ended sandbox old and keeps only the
// work folder, as the start of a new sandbox with rec's quotas.
func (p *Provider) restore(ctx context.Context, old string, rec *liveRecord) (*vfs.FS, error) {
	if !idPattern.MatchString(old) {
		return nil, fmt.Errorf("wasm: restore from %q: not a wasm sandbox id: %w", old, sandbox.ErrGone)
	}
	snap := vfs.NewSnapshotter(p.kv, prefixKey(old))
	fsys, _, err := snap.Load(ctx, vfs.Options{MaxBytes: rec.MaxBytes, MaxFiles: rec.MaxFiles})
	if errors.Is(err, vfs.ErrNoSnapshot) {
		return nil, fmt.Errorf("wasm: restore from sandbox %s: no snapshot left (destroyed, or ended more than the restore window ago): %w", old, sandbox.ErrGone)
	}
	if err != nil {
		return nil, fmt.Errorf("wasm: restore from sandbox %s: %w", old, err)
	}
	if err := keepOnly(fsys, rec.Workdir); err != nil {
		return nil, fmt.Errorf("wasm: restore from sandbox %s: %w", old, err)
	}
	return fsys, nil
}

// keepOnly removes everything of fsys but the folder keep and the folders
// above it.
func keepOnly(fsys *vfs.FS, keep string) error {
	keep = path.Clean(keep)
	var walk func(dir string) error
	walk = func(dir string) error {
		d, err := fsys.Open(dir)
		if err != nil {
			return err
		}
		names, err := d.Readdirnames(-1)
		d.Close()
		if err != nil {
			return err
		}
		for _, n := range names {
			p := path.Join(dir, n)
			switch {
			case p == keep:
			case strings.HasPrefix(keep, p+"/"):
				fi, _, err := fsys.LstatIfPossible(p)
				if err != nil {
					return err
				}
				if fi.IsDir() {
					if err := walk(p); err != nil {
						return err
					}
					continue
				}
				fallthrough
			default:
				if err := fsys.RemoveAll(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
			}
		}
		return nil
	}
	return walk("/")
}
