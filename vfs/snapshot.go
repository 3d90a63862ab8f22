package vfs

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
)

// SnapshotStore is what snapshots need of a kv: runtime/kv's Store has it.
// A missing key is an error matching kv.ErrNotFound.
type SnapshotStore interface {
	Get(ctx context.Context, key string) ([]byte, error)
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
	Delete(ctx context.Context, key string) error
	SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error)
	CompareAndSwap(ctx context.Context, key string, old, new []byte, ttl time.Duration) (bool, error)
	CompareAndDelete(ctx context.Context, key string, old []byte) (bool, error)
	Expire(ctx context.Context, key string, ttl time.Duration) (bool, error)
	Keys(ctx context.Context, prefix string) ([]string, error)
}

var (
	// ErrNoSnapshot: there is no snapshot under the Snapshotter's prefix.
	ErrNoSnapshot = errors.New("vfs: no snapshot")
	// ErrDamaged matches the error of loading a snapshot whose manifest or
	// one of whose objects is missing or does not hold what it should. The
	// snapshot is not gone: it cannot be read, and only deleting it ends it.
	ErrDamaged = errors.New("vfs: snapshot damaged")
)

// A snapshot is content-addressed, like a Git tree:
//
//	PREFIX/obj/HASH     a file's content (or a 4 MiB piece of a big
//	                    file's), or a folder's entry list (gzip)
//	PREFIX/manifest     {generation, root folder hash, usage}, written last
//	PREFIX/saving/ID    a Save in progress (short TTL)
//	PREFIX/gc           a collection in progress (short TTL)
//	PREFIX/litter       a Save failed after writing objects: the next
//	                    collection lists the store to find them
//
// An object's key is the SHA-256 of what it holds, so an object that is
// already stored is never written again: a snapshot writes only the changed
// files and the folders on the path from them to the root. A crash before
// the manifest is written leaves the previous snapshot whole.
//
// Many writers (processes, or Snapshotters in one process) may save one
// snapshot at once. The manifest is written with a compare-and-swap on the
// manifest the writer started from; when another writer got in first, the
// two trees are merged three ways against that base — a path only one side
// changed takes that side's version, a path both changed takes this
// writer's (the last writer wins) — and the swap is tried again on the new
// manifest. The merged tree is written into the writer's FS too, so the
// other writer's changes show there.
//
// Objects no manifest references (the previous versions of changed files,
// what a killed Save wrote) are collected by the writer that swapped the
// manifest in, and only while no other Save is in progress: every Save
// announces itself under saving/ before it decides which objects the store
// holds, and waits while a collection runs. An object a live manifest, or a
// manifest about to be written, references is never deleted. A writer
// deletes what its own Saves replaced by name; it lists the store's objects
// only when another writer may have left some (see collect).
//
// A Save encodes only the folder objects that changed: an object whose
// entries are all as the last Save found them is kept by its hash
// (putListing).

// Manifest is the head of a snapshot.
type Manifest struct {
	Generation uint64    `json:"generation"`
	Root       string    `json:"root"`
	Bytes      int64     `json:"bytes"`
	Files      int       `json:"files"`
	SavedAt    time.Time `json:"savedAt"`
}

// SnapshotStats says what one Save wrote.
type SnapshotStats struct {
	Generation     uint64
	ObjectsWritten int
	BytesWritten   int64 // compressed bytes sent to the store, manifest included
	ObjectsDeleted int   // objects no manifest referenced any more, collected
	// FoldersRead counts the folders this Save listed; the others had not
	// changed since the last Save of the same FS, which it took them from.
	FoldersRead int
	// Merged counts the other writers' snapshots this Save merged with
	// (0 when nobody else saved since this Snapshotter's last Save or Load).
	Merged int
}

const (
	// savingTTL bounds how long a Save killed mid-way (its process ended)
	// holds collection off; a long Save renews it.
	savingTTL = 10 * time.Minute
	// gcTTL bounds how long a killed collection holds Saves off.
	gcTTL = time.Minute
	// maxMerges bounds the merge-and-retry rounds of one Save.
	maxMerges = 64
)

// Snapshotter saves an FS into a store under a prefix, incrementally, and
// loads it back. It remembers what the store held at its last Save or Load
// (the base it merges against). Many Snapshotters, in one process or many,
// may save and load the same prefix at once (see above). It is safe for
// concurrent use.
type Snapshotter struct {
	store  SnapshotStore
	prefix string

	mu      sync.Mutex
	gen     uint64
	baseRaw []byte               // the manifest as last saved or loaded; nil before any
	base    map[string]entry     // its tree, flat: clean path → entry (the root not listed)
	known   map[string]struct{}  // objects the store holds for it
	files   map[string]fileState // content hashes of files as last saved
	swept   bool                 // a collection ran since the last Load
	// listings are the folder objects of the last Save (see putListing).
	listings map[string]listingMemo
	// garbage are objects earlier Saves stopped using that no collection
	// has deleted yet: the next collection deletes them without listing
	// the store.
	garbage map[string]struct{}
	sweptAt time.Time // when a collection last listed the store
	// walked is the FS the last Save read, walkedAt the moment it read
	// it from (FS.ChangeVersion); root, kids and memoKeys are what it
	// stored (saver.keepTree). A Save of the same FS reads only the
	// folders that changed since.
	walked   *FS
	walkedAt uint64
	root     string
	kids     map[string][]string
	memoKeys map[string][]string
}

type fileState struct {
	size   int64
	mtime  time.Time
	hash   string
	chunks []string
}

// entry is one line of a folder object.
type entry struct {
	Name  string      `json:"n"`
	Type  string      `json:"t"` // "f", "d" or "l"
	Mode  fs.FileMode `json:"m"`
	Size  int64       `json:"s,omitempty"`
	MTime int64       `json:"mt"`
	Hash  string      `json:"h,omitempty"`
	Link  string      `json:"l,omitempty"`
	// Chunks, for a file over fileChunk bytes, are its pieces' objects in
	// order (Hash is then empty).
	Chunks []string `json:"c,omitempty"`
}

// NewSnapshotter returns a Snapshotter that keeps its objects under prefix
// (for example "wasm/SANDBOX-ID/").
func NewSnapshotter(store SnapshotStore, prefix string) *Snapshotter {
	return &Snapshotter{store: store, prefix: prefix, known: map[string]struct{}{}, files: map[string]fileState{}, base: map[string]entry{}}
}

func (s *Snapshotter) objKey(h string) string { return s.prefix + "obj/" + h }
func (s *Snapshotter) manifestKey() string    { return s.prefix + "manifest" }
func (s *Snapshotter) gcKey() string          { return s.prefix + "gc" }
func (s *Snapshotter) litterKey() string      { return s.prefix + "litter" }
func (s *Snapshotter) savingPrefix() string   { return s.prefix + "saving/" }

// Generation returns the generation of the last snapshot this Snapshotter
// saved or loaded (0 before any).
func (s *Snapshotter) Generation() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen
}

// StoredManifest reads the manifest the store holds now: ErrNoSnapshot when
// there is none, ErrDamaged when it cannot be read.
func (s *Snapshotter) StoredManifest(ctx context.Context) (Manifest, error) {
	m, _, err := s.readManifest(ctx)
	return m, err
}

func (s *Snapshotter) readManifest(ctx context.Context) (Manifest, []byte, error) {
	var m Manifest
	raw, err := s.store.Get(ctx, s.manifestKey())
	if errors.Is(err, kv.ErrNotFound) {
		return m, nil, ErrNoSnapshot
	}
	if err != nil {
		return m, nil, fmt.Errorf("vfs: read snapshot manifest: %w", err)
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.Root == "" {
		if err == nil {
			err = errors.New("no root")
		}
		return m, raw, fmt.Errorf("%w: its manifest cannot be read (%v); delete the snapshot to end it", ErrDamaged, err)
	}
	return m, raw, nil
}

func randomID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Save writes a snapshot of fsys: the objects the store does not hold yet,
// then the manifest (the stored generation + 1) with ttl, by compare-and-
// swap on the manifest this Snapshotter last saved or loaded. When another
// writer saved meanwhile, the two are merged (see the type's doc) and fsys
// gets the other writer's changes. Every object is written with ttl too.
// A snapshot deleted meanwhile (no manifest where there was one) is
// ErrNoSnapshot: nothing is written.
func (s *Snapshotter) Save(ctx context.Context, fsys *FS, ttl time.Duration) (SnapshotStats, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := &saver{s: s, ctx: ctx, ttl: ttl, fsys: fsys,
		used: make(map[string]struct{}, len(s.known)), files: make(map[string]fileState, len(s.files)),
		flat: make(map[string]entry, len(s.base)), listings: make(map[string]listingMemo, len(s.listings)),
		kids: make(map[string][]string, len(s.kids)), memoKeys: make(map[string][]string, len(s.memoKeys))}
	defer w.release()
	// Announce the Save before deciding what the store holds, then wait
	// out a collection that started before.
	token := s.savingPrefix() + randomID()
	if err := s.store.Set(ctx, token, []byte("1"), savingTTL); err != nil {
		return w.stats, fmt.Errorf("vfs: start a snapshot: %w", err)
	}
	w.token, w.renewed = token, time.Now()
	release := func() { _ = s.store.Delete(context.WithoutCancel(ctx), token) }
	saved := false
	defer func() {
		if !saved {
			s.litter(context.WithoutCancel(ctx), w)
		}
	}()
	if err := s.waitCollection(ctx); err != nil {
		release()
		return w.stats, err
	}

	moment := fsys.ChangeVersion()
	w.skip, w.since = s.walked == fsys && s.kids != nil, s.walkedAt
	root, err := w.folder("/", false)
	if err == nil && w.missed {
		// An object the last Save stored is not known to be in the
		// store: read the whole tree.
		clear(w.used)
		clear(w.files)
		clear(w.flat)
		clear(w.listings)
		clear(w.kids)
		clear(w.memoKeys)
		w.skip, w.stats.FoldersRead = false, 0
		root, err = w.folder("/", false)
	}
	if err != nil {
		release()
		return w.stats, err
	}
	flat := w.flat
	bytes, files := fsys.Usage()
	var committed []byte
	for attempt := 0; ; attempt++ {
		_, curRaw, err := s.readManifest(ctx)
		switch {
		case errors.Is(err, ErrNoSnapshot):
			if s.baseRaw != nil {
				release()
				return w.stats, fmt.Errorf("vfs: the snapshot was deleted meanwhile: %w", ErrNoSnapshot)
			}
		case err != nil:
			release()
			return w.stats, err
		}
		var m Manifest
		if curRaw == nil || bytes2equal(curRaw, s.baseRaw) {
			m = Manifest{Generation: s.gen + 1, Root: root, Bytes: bytes, Files: files, SavedAt: time.Now().UTC()}
		} else {
			// Another writer got in first: merge with what it saved.
			if attempt >= maxMerges {
				release()
				return w.stats, fmt.Errorf("vfs: save snapshot: other writers keep saving (%d merges); try again", attempt)
			}
			theirs, err := s.parseManifest(curRaw)
			if err != nil {
				release()
				return w.stats, err
			}
			theirFlat, err := w.tree(theirs.Root)
			if err != nil {
				release()
				return w.stats, fmt.Errorf("vfs: merge with the stored snapshot: %w", err)
			}
			if w.stats.Merged == 0 {
				// Objects this Save took as stored may have been collected
				// since its base: ask the store.
				if err := w.recheckOurs(flat); err != nil {
					release()
					return w.stats, err
				}
			}
			merged := mergeTrees(s.base, flat, theirFlat)
			if root, err = w.putTree(merged); err != nil {
				release()
				return w.stats, err
			}
			bytes, files = usageOf(merged)
			m = Manifest{Generation: theirs.Generation + 1, Root: root, Bytes: bytes, Files: files, SavedAt: time.Now().UTC()}
			w.stats.Merged++
			ok, err := w.swap(curRaw, m)
			if err != nil {
				release()
				return w.stats, err
			}
			if !ok {
				continue
			}
			if err := w.apply(flat, merged); err != nil {
				release()
				return w.stats, fmt.Errorf("vfs: bring the other writer's changes in: %w", err)
			}
			committed, flat = w.committed, merged
			break
		}
		ok, err := w.swap(s.baseRaw, m)
		if err != nil {
			release()
			return w.stats, err
		}
		if ok {
			committed = w.committed
			break
		}
	}
	saved = true
	old := s.known
	s.gen, s.baseRaw, s.base, s.known, s.files, s.listings = w.stats.Generation, committed, flat, w.used, w.files, w.listings
	s.walked, s.walkedAt, s.root, s.kids, s.memoKeys = fsys, moment, root, w.kids, w.memoKeys
	if w.stats.Merged > 0 {
		// The tree is the merge's (putTree), which keeps no kids.
		s.walked, s.kids, s.memoKeys = nil, nil, nil
	}
	release()
	// Collect what no manifest needs: what the previous version used and
	// this one does not (those objects alone), and once after each Load or
	// merge whatever the store holds that nothing references (what killed
	// Saves and other writers left).
	s.addGarbage(old, w.used)
	if len(s.garbage) > 0 || !s.swept || w.stats.Merged > 0 || time.Since(s.sweptAt) > savingTTL {
		w.stats.ObjectsDeleted = s.collect(context.WithoutCancel(ctx), committed, w.stats.Merged > 0)
	}
	return w.stats, nil
}

// litter notes that the Save w failed after writing objects no manifest
// references: this Snapshotter's next collection deletes them, and any
// other's lists the store once (the litter key) to find them.
func (s *Snapshotter) litter(ctx context.Context, w *saver) {
	if w.stats.ObjectsWritten == 0 {
		return
	}
	s.addGarbage(w.used, s.known)
	_ = s.store.Set(ctx, s.litterKey(), []byte(randomID()), max(w.ttl, savingTTL))
}

// addGarbage notes the objects of objs that keep does not hold as
// garbage, for the next collection.
func (s *Snapshotter) addGarbage(objs, keep map[string]struct{}) {
	for h := range objs {
		if _, kept := keep[h]; !kept {
			if s.garbage == nil {
				s.garbage = map[string]struct{}{}
			}
			s.garbage[h] = struct{}{}
		}
	}
}

func bytes2equal(a, b []byte) bool { return b != nil && bytes.Equal(a, b) }

func (s *Snapshotter) parseManifest(raw []byte) (Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil || m.Root == "" {
		return m, fmt.Errorf("%w: its manifest cannot be read; delete the snapshot to end it", ErrDamaged)
	}
	return m, nil
}

// swap writes m as the manifest if the store still holds old (nil: none).
func (w *saver) swap(old []byte, m Manifest) (bool, error) {
	raw, _ := json.Marshal(m)
	var ok bool
	var err error
	if old == nil {
		ok, err = w.s.store.SetIfAbsent(w.ctx, w.s.manifestKey(), raw, w.ttl)
	} else {
		ok, err = w.s.store.CompareAndSwap(w.ctx, w.s.manifestKey(), old, raw, w.ttl)
	}
	if err != nil {
		return false, fmt.Errorf("vfs: write snapshot manifest: %w", err)
	}
	if ok {
		w.stats.BytesWritten += int64(len(raw))
		w.stats.Generation = m.Generation
		w.committed = raw
	}
	return ok, nil
}

// waitCollection waits while a collection runs (at most gcTTL, its key's
// life).
func (s *Snapshotter) waitCollection(ctx context.Context) error {
	deadline := time.Now().Add(gcTTL + time.Second)
	for {
		_, err := s.store.Get(ctx, s.gcKey())
		if errors.Is(err, kv.ErrNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("vfs: start a snapshot: %w", err)
		}
		if time.Now().After(deadline) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// collect deletes objects under the prefix that the manifest raw (this
// Snapshotter's, just written) does not reference. It lists the store's
// objects once after a Load (what killed Saves left), when full is set (a
// merge), when a failed Save left its litter key, and at least once every
// savingTTL and after a collection saw another Save's saving/ key (a Save
// killed with its process leaves no litter key: its saving/ key holds
// collections off until it expires); otherwise it deletes
// just s.garbage, the objects earlier Saves of this Snapshotter stopped
// using or wrote and failed. Nothing is deleted while another Save is in
// progress or when the manifest changed since: a later Save collects then
// (s.garbage keeps what was not deleted). It returns how many it deleted.
func (s *Snapshotter) collect(ctx context.Context, raw []byte, full bool) int {
	token := []byte(randomID())
	ok, err := s.store.SetIfAbsent(ctx, s.gcKey(), token, gcTTL)
	if err != nil || !ok {
		return 0
	}
	defer s.store.CompareAndDelete(ctx, s.gcKey(), token)
	if saving, err := s.store.Keys(ctx, s.savingPrefix()); err != nil || len(saving) > 0 {
		// Another Save runs, or one was killed: what it wrote is found by
		// listing the store once its key is gone.
		s.swept = false
		return 0
	}
	if _, cur, err := s.readManifest(ctx); err != nil || !bytes.Equal(cur, raw) {
		return 0
	}
	litter, err := s.store.Get(ctx, s.litterKey())
	switch {
	case err == nil:
		full = true
	case !errors.Is(err, kv.ErrNotFound):
		return 0
	}
	full = full || !s.swept || time.Since(s.sweptAt) > savingTTL
	var hashes []string
	if full {
		keys, err := s.store.Keys(ctx, s.prefix+"obj/")
		if err != nil {
			return 0
		}
		hashes = make([]string, len(keys))
		for i, k := range keys {
			hashes[i] = k[len(s.prefix)+len("obj/"):]
		}
	} else {
		hashes = make([]string, 0, len(s.garbage))
		for h := range s.garbage {
			hashes = append(hashes, h)
		}
	}
	start, n := time.Now(), 0
	left := map[string]struct{}{}
	for _, h := range hashes {
		if _, live := s.known[h]; live {
			continue
		}
		if time.Since(start) > gcTTL/2 {
			left[h] = struct{}{} // the next collection deletes it
			continue
		}
		if err := s.store.Delete(ctx, s.objKey(h)); err != nil {
			left[h] = struct{}{}
			continue
		}
		n++
	}
	s.garbage = left
	if full {
		if litter != nil {
			_, _ = s.store.CompareAndDelete(ctx, s.litterKey(), litter)
		}
		s.swept, s.sweptAt = true, start
	}
	return n
}

// Delete removes the snapshot: its manifest, then every key under the
// prefix (objects, saves in progress). It loads nothing, so it works on a
// damaged snapshot too.
func (s *Snapshotter) Delete(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.store.Delete(ctx, s.manifestKey()); err != nil {
		return err
	}
	keys, err := s.store.Keys(ctx, s.prefix)
	if err != nil {
		return err
	}
	for _, k := range keys {
		_ = s.store.Delete(ctx, k)
	}
	s.known, s.files, s.base, s.baseRaw, s.gen = map[string]struct{}{}, map[string]fileState{}, map[string]entry{}, nil, 0
	s.listings, s.garbage, s.kids, s.memoKeys, s.walked, s.root = nil, nil, nil, nil, nil, ""
	return nil
}
