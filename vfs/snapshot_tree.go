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
	"os"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
)

// fileChunk is the size of the pieces a big file is stored in: a file of
// up to fileChunk bytes is one object, a bigger one a list of them (only
// the pieces that changed are written again, and no Save or Load holds
// more than a piece of it beyond the file itself).
const fileChunk = 4 << 20

// gzipWriters are the writers of every Save in the process: a new one is
// about a megabyte of tables, which each new sandbox's first Save made and
// dropped (100 sandboxes made at once: 110 MB for the collector).
var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
	return zw
}}

// fileBuffers are the fileChunk-sized buffers Saves read files with: one
// a Save that reads any file (4 MiB to allocate and clear each time
// otherwise).
var fileBuffers = sync.Pool{New: func() any {
	b := make([]byte, fileChunk)
	return &b
}}

// release gives the Save's gzip writer and file buffer back.
func (w *saver) release() {
	if w.buf != nil {
		fileBuffers.Put(w.buf)
		w.buf = nil
	}
	if w.zw != nil {
		w.zw.Reset(io.Discard) // no reference to this Save's buffer
		gzipWriters.Put(w.zw)
		w.zw = nil
	}
}

// saver is one Save's walk.
type saver struct {
	s     *Snapshotter
	ctx   context.Context
	ttl   time.Duration
	fsys  *FS
	used  map[string]struct{}
	files map[string]fileState
	flat  map[string]entry
	// listings are the folder objects this Save stored or kept, for the
	// next Save (Snapshotter.listings).
	listings map[string]listingMemo
	// kids are each folder's children (paths, sorted by name) and memoKeys
	// its listings' keys, for the next Save's keepTree.
	kids     map[string][]string
	memoKeys map[string][]string
	// since, when skip is set, is the moment of the last Save of this FS:
	// a folder unchanged since keeps what that Save stored (keepTree).
	since   uint64
	skip    bool
	missed  bool // keepTree found an object the store may not hold
	stats   SnapshotStats
	buf     *[]byte      // a piece of a file being read (fileBuffers)
	zw      *gzip.Writer // from gzipWriters, given back at the Save's end
	zbuf    bytes.Buffer // what zw wrote for the object being stored
	token   string       // the saving/ key
	renewed time.Time

	committed []byte // the manifest as written
}

// folder stores the object of folder p (and what it holds) and returns its
// hash. fresh says an ancestor of p was made, removed or moved since the
// last Save: nothing below it may be kept.
func (w *saver) folder(p string, fresh bool) (string, error) {
	if err := w.ctx.Err(); err != nil {
		return "", err
	}
	if w.skip && !fresh {
		unchanged, replaced := w.fsys.changedSince(p, w.since)
		if unchanged {
			if h, ok := w.keptFolder(p); ok {
				w.keepTree(p, h)
				return h, nil
			}
		}
		fresh = replaced
	}
	w.stats.FoldersRead++
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
	unchanged := make([]bool, 0, len(infos))
	kids := make([]string, 0, len(infos))
	for _, fi := range infos {
		child := path.Join(p, fi.Name())
		kids = append(kids, child)
		e := entry{Name: fi.Name(), Mode: fi.Mode(), MTime: fi.ModTime().UnixNano()}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			e.Type = "l"
			if e.Link, err = w.fsys.ReadlinkIfPossible(child); err != nil {
				return "", err
			}
		case fi.IsDir():
			e.Type = "d"
			if e.Hash, err = w.folder(child, fresh); err != nil {
				return "", err
			}
		default:
			e.Type, e.Size = "f", fi.Size()
			st, err := w.file(child, fi)
			if err != nil {
				return "", err
			}
			e.Hash, e.Chunks = st.hash, st.chunks
		}
		entries = append(entries, e)
		before, ok := w.s.base[child]
		unchanged = append(unchanged, ok && equalEntry(before, e))
		w.flat[child] = e
	}
	w.kids[p] = kids
	return w.putEntries(p, entries, unchanged)
}

// keptFolder is the object the last Save stored for the folder p, if it
// stored one.
func (w *saver) keptFolder(p string) (string, bool) {
	h := w.s.root
	if p != "/" {
		e, ok := w.s.base[p]
		if !ok || e.Type != "d" {
			return "", false
		}
		h = e.Hash
	}
	_, listed := w.s.kids[p]
	return h, listed && h != ""
}

// keepTree takes the folder dir, unchanged since the last Save, and what
// is below it as that Save stored them (its object h), without reading
// the FS.
func (w *saver) keepTree(dir, h string) {
	w.keepObject(h)
	w.memoKeys[dir] = w.s.memoKeys[dir]
	for _, k := range w.s.memoKeys[dir] {
		m := w.s.listings[k]
		w.listings[k] = m
		w.keepObject(m.hash)
	}
	kids := w.s.kids[dir]
	w.kids[dir] = kids
	for _, c := range kids {
		e := w.s.base[c]
		w.flat[c] = e
		switch e.Type {
		case "d":
			w.keepTree(c, e.Hash)
		case "f":
			st := w.s.files[c]
			w.files[c] = st
			if !w.stored(st) {
				w.missed = true
			}
			w.use(st)
		}
	}
}

// keepObject marks h used by this Save; the store must hold it already.
func (w *saver) keepObject(h string) {
	if _, ok := w.s.known[h]; !ok {
		w.missed = true
	}
	w.used[h] = struct{}{}
}

// equalEntry reports whether a and b are alike in every field (so their
// JSON is too; sameEntry leaves out a folder's hash).
func equalEntry(a, b entry) bool {
	return a.Name == b.Name && a.Type == b.Type && a.Mode == b.Mode && a.Size == b.Size &&
		a.MTime == b.MTime && a.Hash == b.Hash && a.Link == b.Link && slices.Equal(a.Chunks, b.Chunks)
}

// listingMemo is a folder object (a folder's listing, or one chunk of a big
// folder's) a Save stored: the object's hash, how many entries it lists
// and the last one's name. Its key in Snapshotter.listings is the folder's
// path and the first name listed (see listingKey).
type listingMemo struct {
	hash string
	n    int
	last string
}

func listingKey(dir string, entries []entry) string {
	if len(entries) == 0 {
		return dir
	}
	return dir + "\x00" + entries[0].Name
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

// putEntries stores the folder dir's entries (sorted by name) and returns
// the folder's hash. unchanged[i] says entries[i] is as in the last Save's
// tree (nil: not known).
func (w *saver) putEntries(dir string, entries []entry, unchanged []bool) (string, error) {
	if len(entries) <= chunkMax {
		return w.putListing(dir, entries, unchanged)
	}
	var cf chunkedFolder
	start := 0
	for i, e := range entries {
		if i == len(entries)-1 || nameHash(e.Name)%chunkEvery == 0 || i+1-start == chunkMax {
			var same []bool
			if unchanged != nil {
				same = unchanged[start : i+1]
			}
			ch, err := w.putListing(dir, entries[start:i+1], same)
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

// putListing stores one folder object, a JSON array of entries, and
// returns its hash. When the last Save stored an object for the same
// folder, starting at the same name, with as many entries and the same
// last name, and each entry is unchanged since (unchanged all true), the
// object holds exactly these entries: every entry between the first and
// the last of then is one of now (a name added in between is not
// unchanged, one removed makes the count differ). Its hash is taken as it
// is, without encoding the entries again.
func (w *saver) putListing(dir string, entries []entry, unchanged []bool) (string, error) {
	key := listingKey(dir, entries)
	if m, ok := w.s.listings[key]; ok && unchanged != nil && m.n == len(entries) &&
		(len(entries) == 0 || m.last == entries[len(entries)-1].Name) && !slices.Contains(unchanged, false) {
		if _, stored := w.s.known[m.hash]; stored {
			w.used[m.hash] = struct{}{}
			w.listings[key] = m
			w.memoKeys[dir] = append(w.memoKeys[dir], key)
			return m.hash, nil
		}
	}
	raw, _ := json.Marshal(entries)
	h, err := w.put(raw)
	if err != nil {
		return "", err
	}
	w.memoKeys[dir] = append(w.memoKeys[dir], key)
	m := listingMemo{hash: h, n: len(entries)}
	if len(entries) > 0 {
		m.last = entries[len(entries)-1].Name
	}
	w.listings[key] = m
	return h, nil
}

// file returns the objects of a file's content, storing what is new. A
// file whose size and modification time are as last saved keeps them.
func (w *saver) file(p string, fi fs.FileInfo) (fileState, error) {
	if st, ok := w.s.files[p]; ok && st.size == fi.Size() && st.mtime.Equal(fi.ModTime()) && w.stored(st) {
		w.use(st)
		w.files[p] = st
		return st, nil
	}
	st, err := w.storeFile(p)
	if err != nil {
		return st, err
	}
	st.mtime = fi.ModTime()
	w.files[p] = st
	return st, nil
}

// storeFile reads the file at p a piece at a time and stores the pieces the
// store does not hold.
func (w *saver) storeFile(p string) (fileState, error) {
	var st fileState
	f, err := w.fsys.Open(p)
	if err != nil {
		return st, err
	}
	defer f.Close()
	if w.buf == nil {
		w.buf = fileBuffers.Get().(*[]byte)
	}
	var hashes []string
	for {
		n, err := io.ReadFull(f, *w.buf)
		if n > 0 || len(hashes) == 0 {
			h, perr := w.put((*w.buf)[:n])
			if perr != nil {
				return st, perr
			}
			hashes = append(hashes, h)
			st.size += int64(n)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return st, err
		}
	}
	if len(hashes) == 1 {
		st.hash = hashes[0]
	} else {
		st.chunks = hashes
	}
	return st, nil
}

func (w *saver) stored(st fileState) bool {
	if st.hash != "" {
		_, ok := w.s.known[st.hash]
		return ok
	}
	for _, h := range st.chunks {
		if _, ok := w.s.known[h]; !ok {
			return false
		}
	}
	return len(st.chunks) > 0
}

func (w *saver) use(st fileState) {
	if st.hash != "" {
		w.used[st.hash] = struct{}{}
	}
	for _, h := range st.chunks {
		w.used[h] = struct{}{}
	}
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
	if err := w.ctx.Err(); err != nil {
		return "", err
	}
	buf := &w.zbuf // the store copies what it is given: one buffer serves
	buf.Reset()
	if w.zw == nil {
		w.zw = gzipWriters.Get().(*gzip.Writer)
	}
	w.zw.Reset(buf)
	w.zw.Write(data)
	w.zw.Close()
	if err := w.s.store.Set(w.ctx, w.s.objKey(h), buf.Bytes(), w.ttl); err != nil {
		return "", fmt.Errorf("vfs: write snapshot object: %w", err)
	}
	w.stats.ObjectsWritten++
	w.stats.BytesWritten += int64(buf.Len())
	if w.token != "" && time.Since(w.renewed) > savingTTL/4 {
		_, _ = w.s.store.Expire(w.ctx, w.token, savingTTL)
		w.renewed = time.Now()
	}
	return h, nil
}

// tree reads the folder objects of a stored tree (not the files) into a
// flat map.
func (w *saver) tree(root string) (map[string]entry, error) {
	r := &reader{s: w.s, ctx: w.ctx, used: map[string]struct{}{}}
	flat := map[string]entry{}
	var walk func(p, h string) error
	walk = func(p, h string) error {
		entries, err := r.entries(p, h)
		if err != nil {
			return err
		}
		for _, e := range entries {
			child := path.Join(p, e.Name)
			flat[child] = e
			if e.Type == "d" {
				if err := walk(child, e.Hash); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return flat, walk("/", root)
}

// recheckOurs makes sure every file object of flat is in the store (a
// collection since this Snapshotter's base may have taken what it took as
// stored), writing the missing ones from the FS again; known becomes what
// the store holds.
func (w *saver) recheckOurs(flat map[string]entry) error {
	keys, err := w.s.store.Keys(w.ctx, w.s.prefix+"obj/")
	if err != nil {
		return fmt.Errorf("vfs: list snapshot objects: %w", err)
	}
	have := make(map[string]struct{}, len(keys))
	for _, k := range keys {
		have[k[len(w.s.prefix)+len("obj/"):]] = struct{}{}
	}
	w.s.known = have
	w.used = map[string]struct{}{}
	for p, e := range flat {
		if e.Type != "f" {
			continue
		}
		st := fileState{size: e.Size, mtime: time.Unix(0, e.MTime), hash: e.Hash, chunks: e.Chunks}
		if !w.stored(st) {
			if st, err = w.storeFile(p); err != nil {
				return err
			}
			st.mtime = time.Unix(0, e.MTime)
			e.Hash, e.Chunks = st.hash, st.chunks
			flat[p] = e
		}
		w.files[p] = st
	}
	return nil
}

// putTree stores the folder objects of a flat tree, deepest first, and
// returns the root's hash; used becomes exactly the objects the tree
// references.
func (w *saver) putTree(flat map[string]entry) (string, error) {
	kids := map[string][]string{"/": nil}
	for p, e := range flat {
		dir := path.Dir(p)
		kids[dir] = append(kids[dir], p)
		if e.Type == "d" {
			if _, ok := kids[p]; !ok {
				kids[p] = nil
			}
		}
	}
	dirs := make([]string, 0, len(kids))
	for d := range kids {
		dirs = append(dirs, d)
	}
	sort.Slice(dirs, func(i, j int) bool { return strings.Count(dirs[i], "/") > strings.Count(dirs[j], "/") })
	w.used = map[string]struct{}{}
	w.listings = map[string]listingMemo{} // of this tree only
	for _, e := range flat {
		if e.Type == "f" {
			w.use(fileState{hash: e.Hash, chunks: e.Chunks})
		}
	}
	hashes := map[string]string{}
	for _, d := range dirs {
		if d == "/" {
			continue
		}
		h, err := w.putDir(d, kids[d], flat, hashes)
		if err != nil {
			return "", err
		}
		hashes[d] = h
	}
	return w.putDir("/", kids["/"], flat, hashes)
}

func (w *saver) putDir(d string, names []string, flat map[string]entry, hashes map[string]string) (string, error) {
	sort.Strings(names)
	entries := make([]entry, 0, len(names))
	for _, p := range names {
		e := flat[p]
		e.Name = path.Base(p)
		if e.Type == "d" {
			e.Hash = hashes[p]
			flat[p] = e
		}
		entries = append(entries, e)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	return w.putEntries(d, entries, nil)
}

// usageOf is what a flat tree holds, as FS.Usage counts it.
func usageOf(flat map[string]entry) (bytes int64, files int) {
	for _, e := range flat {
		if e.Type == "f" {
			bytes += e.Size
		}
	}
	return bytes, len(flat)
}

// reader reads objects.
type reader struct {
	s       *Snapshotter
	ctx     context.Context
	used    map[string]struct{}
	fetched int // bytes read from the store since the last collection
}

// collectEvery is how many bytes of objects a load reads between two
// garbage collections. Each object the store returns is a new slice,
// garbage once its content is in the FS; left to itself the collector lets
// garbage grow as large as what is live before it runs, so loading a big
// file would cost the host twice its size. Collecting every 16 MiB keeps
// it at the files' size plus about that much.
const collectEvery = 16 << 20

func (r *reader) collect(n int) {
	r.fetched += n
	if r.fetched >= collectEvery {
		r.fetched = 0
		runtime.GC()
	}
}

func (r *reader) get(h string) ([]byte, error) {
	var out bytes.Buffer
	err := r.getTo(&out, h)
	return out.Bytes(), err
}

// getTo writes the content of object h to w, checking it against its hash.
func (r *reader) getTo(w io.Writer, h string) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	raw, err := r.s.store.Get(r.ctx, r.s.objKey(h))
	r.collect(len(raw))
	if errors.Is(err, kv.ErrNotFound) {
		return &missingError{h}
	}
	if err != nil {
		return fmt.Errorf("vfs: snapshot object %s: %w", short(h), err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("%w: object %s cannot be read: %v", ErrDamaged, short(h), err)
	}
	sum := sha256.New()
	if _, err := io.Copy(io.MultiWriter(w, sum), zr); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return err // the FS refused the write (a quota)
		}
		return fmt.Errorf("%w: object %s cannot be read: %v", ErrDamaged, short(h), err)
	}
	if hex.EncodeToString(sum.Sum(nil)) != h {
		return fmt.Errorf("%w: object %s does not match its hash", ErrDamaged, short(h))
	}
	r.used[h] = struct{}{}
	return nil
}

func short(h string) string { return h[:min(12, len(h))] }

// missingError is an object the manifest names and the store does not
// hold: a collection after a newer manifest took it (load again), or a
// damaged snapshot.
type missingError struct{ hash string }

func (e *missingError) Error() string {
	return fmt.Sprintf("%v: object %s is missing", ErrDamaged, short(e.hash))
}
func (e *missingError) Unwrap() error { return ErrDamaged }

// entries reads a folder's entries from its object (a listing, or a
// chunked one).
func (r *reader) entries(p, h string) ([]entry, error) {
	raw, err := r.get(h)
	if err != nil {
		return nil, err
	}
	if len(raw) > 0 && raw[0] == '{' {
		var cf chunkedFolder
		if err := json.Unmarshal(raw, &cf); err != nil {
			return nil, fmt.Errorf("%w: folder %s cannot be read: %v", ErrDamaged, p, err)
		}
		var all []entry
		for _, ch := range cf.Chunks {
			part, err := r.entries(p, ch)
			if err != nil {
				return nil, err
			}
			all = append(all, part...)
		}
		return all, nil
	}
	var entries []entry
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("%w: folder %s cannot be read: %v", ErrDamaged, p, err)
	}
	for _, e := range entries {
		if e.Name == "" || strings.Contains(e.Name, "/") || e.Name == "." || e.Name == ".." {
			return nil, fmt.Errorf("%w: folder %s holds a bad name %q", ErrDamaged, p, e.Name)
		}
	}
	return entries, nil
}

// writeFile writes a stored file's content into fsys at p, a piece at a
// time, with mode and mtime.
func (r *reader) writeFile(fsys *FS, p string, e entry) error {
	f, err := fsys.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, e.Mode.Perm())
	if err != nil {
		return err
	}
	hashes := e.Chunks
	if len(hashes) == 0 {
		hashes = []string{e.Hash}
	}
	for _, h := range hashes {
		if err := r.getTo(f, h); err != nil {
			f.Close()
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := fsys.Chmod(p, e.Mode.Perm()); err != nil {
		return err
	}
	mtime := time.Unix(0, e.MTime)
	return fsys.Chtimes(p, mtime, mtime)
}

// Load reads the stored snapshot into a new FS with opts' quotas, and makes
// it this Snapshotter's base for the next Save. A snapshot that cannot be
// read is ErrDamaged (an object collected under it because a newer one was
// saved meanwhile makes it read the newer one instead).
func (s *Snapshotter) Load(ctx context.Context, opts Options) (*FS, Manifest, error) {
	for attempt := 0; ; attempt++ {
		m, raw, err := s.readManifest(ctx)
		if err != nil {
			return nil, m, err
		}
		fsys := New(opts)
		l := &loader{reader: reader{s: s, ctx: ctx, used: map[string]struct{}{}}, fsys: fsys, files: map[string]fileState{}, flat: map[string]entry{}}
		err = l.folder("/", m.Root)
		var missing *missingError
		if errors.As(err, &missing) && attempt < 8 {
			if _, now, rerr := s.readManifest(ctx); rerr == nil && !bytes.Equal(now, raw) {
				continue // a newer snapshot replaced this one while it loaded
			}
		}
		if err != nil {
			return nil, m, err
		}
		s.mu.Lock()
		s.gen, s.baseRaw, s.base, s.known, s.files, s.swept = m.Generation, raw, l.flat, l.used, l.files, false
		s.listings, s.garbage, s.kids, s.memoKeys, s.walked, s.root = nil, nil, nil, nil, nil, m.Root
		s.mu.Unlock()
		return fsys, m, nil
	}
}

type loader struct {
	reader
	fsys  *FS
	files map[string]fileState
	flat  map[string]entry
}

func (l *loader) folder(p, h string) error {
	entries, err := l.entries(p, h)
	if err != nil {
		return err
	}
	for _, e := range entries {
		child := path.Join(p, e.Name)
		mtime := time.Unix(0, e.MTime)
		l.flat[child] = e
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
			if err := l.writeFile(l.fsys, child, e); err != nil {
				return err
			}
			l.files[child] = fileState{size: e.Size, mtime: mtime, hash: e.Hash, chunks: e.Chunks}
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
