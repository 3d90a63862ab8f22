package vfs

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"path"
	"sort"
	"sync"
	"time"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/runtime/kv"
)

// SnapshotStore is what snapshots need of a kv: runtime/kv's Store has it.
// A missing key is an error matching kv.ErrNotFound.
type SnapshotStore interface {
	Get(ctx context.Context, key string) ([]byte, error)
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
	Delete(ctx context.Context, key string) error
}

// ErrNoSnapshot: there is no snapshot under the Snapshotter's prefix.
var ErrNoSnapshot = errors.New("vfs: no snapshot")

// A snapshot is content-addressed, like a Git tree:
//
//	PREFIX/obj/HASH   a file's content, or a folder's entry list (gzip)
//	PREFIX/manifest   {generation, root folder hash, usage}, written last
//
// An object's key is the SHA-256 of what it holds, so an object that is
// already stored is never written again: a snapshot writes only the changed
// files and the folders on the path from them to the root. A crash before
// the manifest is written leaves the previous snapshot whole; objects only
// the previous manifest used are deleted after the new one is in place.

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
	ObjectsDeleted int
}

// Snapshotter saves an FS into a store under a prefix, incrementally, and
// loads it back. It remembers what the store holds from its last Save or
// Load, so it is meant for one sandbox in one process at a time; a second
// process loads the snapshot first. It is safe for concurrent use.
type Snapshotter struct {
	store  SnapshotStore
	prefix string

	mu    sync.Mutex
	gen   uint64
	known map[string]struct{}  // objects the store holds for the current manifest
	files map[string]fileState // content hashes of files as last saved
}

type fileState struct {
	size  int64
	mtime time.Time
	hash  string
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
}

// NewSnapshotter returns a Snapshotter that keeps its objects under prefix
// (for example "wasm/SANDBOX-ID/").
func NewSnapshotter(store SnapshotStore, prefix string) *Snapshotter {
	return &Snapshotter{store: store, prefix: prefix, known: map[string]struct{}{}, files: map[string]fileState{}}
}

func (s *Snapshotter) objKey(h string) string { return s.prefix + "obj/" + h }
func (s *Snapshotter) manifestKey() string    { return s.prefix + "manifest" }

// Generation returns the generation of the last snapshot this Snapshotter
// saved or loaded (0 before any).
func (s *Snapshotter) Generation() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen
}

// StoredManifest reads the manifest the store holds now, or ErrNoSnapshot.
func (s *Snapshotter) StoredManifest(ctx context.Context) (Manifest, error) {
	var m Manifest
	raw, err := s.store.Get(ctx, s.manifestKey())
	if errors.Is(err, kv.ErrNotFound) {
		return m, ErrNoSnapshot
	}
	if err != nil {
		return m, fmt.Errorf("vfs: read snapshot manifest: %w", err)
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return m, fmt.Errorf("vfs: snapshot manifest is damaged: %w", err)
	}
	return m, nil
}

// Save writes a snapshot of fsys: the objects the store does not hold yet,
// then the manifest (generation + 1) with ttl, then deletes the objects only
// the previous manifest used. Every object is written with ttl too.
func (s *Snapshotter) Save(ctx context.Context, fsys *FS, ttl time.Duration) (SnapshotStats, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := &saver{s: s, ctx: ctx, ttl: ttl, fsys: fsys, used: map[string]struct{}{}, files: map[string]fileState{}}
	root, err := w.folder("/")
	if err != nil {
		return w.stats, err
	}
	bytes, files := fsys.Usage()
	m := Manifest{Generation: s.gen + 1, Root: root, Bytes: bytes, Files: files, SavedAt: time.Now().UTC()}
	raw, _ := json.Marshal(m)
	if err := s.store.Set(ctx, s.manifestKey(), raw, ttl); err != nil {
		return w.stats, fmt.Errorf("vfs: write snapshot manifest: %w", err)
	}
	w.stats.BytesWritten += int64(len(raw))
	w.stats.Generation = m.Generation
	old := s.known
	s.gen, s.known, s.files = m.Generation, w.used, w.files
	// The new manifest is in place: what only the old one used can go. A
	// failure here only leaves garbage that expires with its TTL.
	for h := range old {
		if _, still := w.used[h]; !still {
			if s.store.Delete(context.WithoutCancel(ctx), s.objKey(h)) == nil {
				w.stats.ObjectsDeleted++
			}
		}
	}
	return w.stats, nil
}

// saver is one Save's walk.
type saver struct {
	s     *Snapshotter
	ctx   context.Context
	ttl   time.Duration
	fsys  *FS
	used  map[string]struct{}
	files map[string]fileState
	stats SnapshotStats
}

// folder stores the object of folder p (and what it holds) and returns its
// hash.
func (w *saver) folder(p string) (string, error) {
	if err := w.ctx.Err(); err != nil {
		return "", err
	}
	d, err := w.fsys.Open(p)
	if err != nil {
		return "", err
	}
	infos, err := d.Readdir(-1)
	d.Close()
	if err != nil {
		return "", err
	}
	sort.Slice(infos, func(i, j int) bool { return infos[i].Name() < infos[j].Name() })
	entries := make([]entry, 0, len(infos))
	for _, fi := range infos {
		child := path.Join(p, fi.Name())
		e := entry{Name: fi.Name(), Mode: fi.Mode(), MTime: fi.ModTime().UnixNano()}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			e.Type = "l"
			if e.Link, err = w.fsys.ReadlinkIfPossible(child); err != nil {
				return "", err
			}
		case fi.IsDir():
			e.Type = "d"
			if e.Hash, err = w.folder(child); err != nil {
				return "", err
			}
		default:
			e.Type, e.Size = "f", fi.Size()
			if e.Hash, err = w.file(child, fi); err != nil {
				return "", err
			}
		}
		entries = append(entries, e)
	}
	return w.putEntries(entries)
}

// A big folder is stored in chunks, so that a change to one entry writes
// one chunk and the list of chunks, not the whole listing: with entries
// sorted by name, a chunk ends after an entry whose name hashes to a
// multiple of chunkEvery (about chunkEvery entries a chunk, boundaries set
// by names, so an entry added or removed changes one chunk), or at
// chunkMax entries. Up to chunkMax entries are one object, the listing
// itself (a JSON array); more are a chunkedFolder object (a JSON object).
const (
	chunkEvery = 128
	chunkMax   = 512
)

// chunkedFolder is a big folder's object: its chunks' hashes, in order,
// each the object of a JSON array of entries.
type chunkedFolder struct {
	Chunks []string `json:"chunks"`
}

// nameHash spreads names evenly over 64 bits: FNV-1a, then a finaliser
// (FNV's low bits alone follow names like f1.txt, f2.txt too closely).
func nameHash(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	x := h.Sum64()
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

// putEntries stores a folder's entries (sorted by name) and returns the
// folder's hash.
func (w *saver) putEntries(entries []entry) (string, error) {
	if len(entries) <= chunkMax {
		raw, _ := json.Marshal(entries)
		return w.put(raw)
	}
	var cf chunkedFolder
	start := 0
	for i, e := range entries {
		if i == len(entries)-1 || nameHash(e.Name)%chunkEvery == 0 || i+1-start == chunkMax {
			raw, _ := json.Marshal(entries[start : i+1])
			ch, err := w.put(raw)
			if err != nil {
				return "", err
			}
			cf.Chunks = append(cf.Chunks, ch)
			start = i + 1
		}
	}
	raw, _ := json.Marshal(cf)
	return w.put(raw)
}

// file returns the hash of a file's content, storing it when new. A file
// whose size and modification time are as last saved keeps its hash.
func (w *saver) file(p string, fi fs.FileInfo) (string, error) {
	if st, ok := w.s.files[p]; ok && st.size == fi.Size() && st.mtime.Equal(fi.ModTime()) {
		if _, stored := w.s.known[st.hash]; stored {
			w.used[st.hash] = struct{}{}
			w.files[p] = st
			return st.hash, nil
		}
	}
	data, err := afero.ReadFile(w.fsys, p)
	if err != nil {
		return "", err
	}
	h, err := w.put(data)
	if err != nil {
		return "", err
	}
	w.files[p] = fileState{size: fi.Size(), mtime: fi.ModTime(), hash: h}
	return h, nil
}

// put stores data as an object unless the store holds it already.
func (w *saver) put(data []byte) (string, error) {
	sum := sha256.Sum256(data)
	h := hex.EncodeToString(sum[:])
	_, stored := w.s.known[h]
	_, written := w.used[h]
	w.used[h] = struct{}{}
	if stored || written {
		return h, nil
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	zw.Write(data)
	zw.Close()
	if err := w.s.store.Set(w.ctx, w.s.objKey(h), buf.Bytes(), w.ttl); err != nil {
		return "", fmt.Errorf("vfs: write snapshot object: %w", err)
	}
	w.stats.ObjectsWritten++
	w.stats.BytesWritten += int64(buf.Len())
	return h, nil
}

// Load reads the stored snapshot into a new FS with opts' quotas, and makes
// it this Snapshotter's base for the next Save.
func (s *Snapshotter) Load(ctx context.Context, opts Options) (*FS, Manifest, error) {
	m, err := s.StoredManifest(ctx)
	if err != nil {
		return nil, m, err
	}
	fsys := New(opts)
	l := &loader{s: s, ctx: ctx, fsys: fsys, used: map[string]struct{}{}, files: map[string]fileState{}}
	if err := l.folder("/", m.Root); err != nil {
		return nil, m, err
	}
	s.mu.Lock()
	s.gen, s.known, s.files = m.Generation, l.used, l.files
	s.mu.Unlock()
	return fsys, m, nil
}

type loader struct {
	s     *Snapshotter
	ctx   context.Context
	fsys  *FS
	used  map[string]struct{}
	files map[string]fileState
}

func (l *loader) get(h string) ([]byte, error) {
	if err := l.ctx.Err(); err != nil {
		return nil, err
	}
	raw, err := l.s.store.Get(l.ctx, l.s.objKey(h))
	if err != nil {
		return nil, fmt.Errorf("vfs: snapshot object %s: %w", h[:12], err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("vfs: snapshot object %s is damaged: %w", h[:12], err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("vfs: snapshot object %s is damaged: %w", h[:12], err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != h {
		return nil, fmt.Errorf("vfs: snapshot object %s does not match its hash", h[:12])
	}
	l.used[h] = struct{}{}
	return data, nil
}

// entries reads a folder's entries from its object (a listing, or a
// chunked one).
func (l *loader) entries(p, h string) ([]entry, error) {
	raw, err := l.get(h)
	if err != nil {
		return nil, err
	}
	if len(raw) > 0 && raw[0] == '{' {
		var cf chunkedFolder
		if err := json.Unmarshal(raw, &cf); err != nil {
			return nil, fmt.Errorf("vfs: snapshot folder %s is damaged: %w", p, err)
		}
		var all []entry
		for _, ch := range cf.Chunks {
			part, err := l.entries(p, ch)
			if err != nil {
				return nil, err
			}
			all = append(all, part...)
		}
		return all, nil
	}
	var entries []entry
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("vfs: snapshot folder %s is damaged: %w", p, err)
	}
	return entries, nil
}

func (l *loader) folder(p, h string) error {
	entries, err := l.entries(p, h)
	if err != nil {
		return err
	}
	for _, e := range entries {
		child := path.Join(p, e.Name)
		mtime := time.Unix(0, e.MTime)
		switch e.Type {
		case "d":
			if err := l.fsys.Mkdir(child, e.Mode.Perm()); err != nil {
				return err
			}
			if err := l.folder(child, e.Hash); err != nil {
				return err
			}
		case "l":
			if err := l.fsys.SymlinkIfPossible(e.Link, child); err != nil {
				return err
			}
			continue
		default:
			data, err := l.get(e.Hash)
			if err != nil {
				return err
			}
			if err := l.fsys.WriteFile(child, data, e.Mode.Perm()); err != nil {
				return err
			}
			l.files[child] = fileState{size: int64(len(data)), mtime: mtime, hash: e.Hash}
		}
		if special := e.Mode & (fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky); special != 0 {
			if err := l.fsys.Chmod(child, e.Mode.Perm()|special); err != nil {
				return err
			}
		}
		if err := l.fsys.Chtimes(child, mtime, mtime); err != nil {
			return err
		}
	}
	return nil
}

// Delete removes the snapshot: its manifest, then every object it knows.
func (s *Snapshotter) Delete(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.store.Delete(ctx, s.manifestKey()); err != nil {
		return err
	}
	for h := range s.known {
		_ = s.store.Delete(ctx, s.objKey(h))
	}
	s.known, s.files, s.gen = map[string]struct{}{}, map[string]fileState{}, 0
	return nil
}
