package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing/fstest" // MapFS: a read-only in-memory fs.FS; it does not link package testing
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/experimental/sysfs"
	"github.com/tetratelabs/wazero/sys"
)

// A clone is a prestarted Python made from a template's memory instead of
// CPython's start: the template runs
// python/prestart.py to the point where it waits for its request, prints
// where builtins, builtins.exec, the code "_agentenkit_serve()" and
// __main__'s dict are, and calls time.time(); in that call (the GIL held)
// the engine copies its memory and stack pointer. A clone is a new instance
// with no start function, that memory mapped copy-on-write (capMemory), the
// stack pointer a little below the template's, and builtins.exec's C
// function called through agentenkit_call (addEntry) to run the code.
// From there it is a prestarted Python like any: it reads its request from
// stdin. The paths the template's start looked up in its "/" (no files,
// or the image's TemplateFiles) must look the same in the sandbox's files
// (serves: missing there too, or there and of the same type); else
// Prestart starts CPython as before.
//
// A clone costs about 2 ms where CPython's start costs 100-160 ms of wasm
// CPU; the template's 10 MiB are shared by every clone until written. What
// clones of one template share that new CPythons would not: the str hash
// seed (as if PYTHONHASHSEED were fixed per template) and addresses (id()).
// The random module, if the start imported it, is reseeded in each.
// A clone cannot return into CPython's main, so the prestart program ends
// it (python/prestart.py, serve): the exit status of SystemExit, an
// uncaught exception or KeyboardInterrupt (130) as main's, threads and
// atexit, the standard streams flushed, then os._exit: objects still alive
// at exit are not finalised (no __del__ at interpreter exit).
type pyTemplate struct {
	image *dataImage
	sp    uint32
	ids   [4]uint32 // builtins, exec, the code, __main__'s dict
	meth  uint32    // exec's C function: its table entry

	looked []lookup // the paths of "/" its start looked up, and what it found
}

// lookup is a path a template's start looked up in its "/", and what an
// lstat of it said there: the error, else the type of the file.
type lookup struct {
	path  string
	errno experimentalsys.Errno
	typ   fs.FileMode
}

const snapshotMarker = "\x00agentenkit-snapshot "

type templates struct {
	mu    sync.Mutex
	m     map[string]*templateSlot
	files experimentalsys.FS // SetTemplateFiles
}

type templateSlot struct {
	once sync.Once
	t    *pyTemplate
	err  error
	made atomic.Bool // once has run: t and err are set
}

// key is ps's template's key: the program name and the variables CPython
// reads at its start (startupKey), the only ones a clone's command must
// share with the template (the prestart program sets the rest from the
// command's request).
func (ps *prestart) key() string {
	var b strings.Builder
	b.WriteString(ps.argv0)
	for _, k := range slices.Sorted(maps.Keys(ps.env)) {
		if startupKey(k) {
			b.WriteString("\x00" + k + "=" + ps.env[k])
		}
	}
	return b.String()
}

// template is the template for ps, made at the first call.
func (img *Image) template(ctx context.Context, ps *prestart) (*pyTemplate, error) {
	img.tmpl.mu.Lock()
	if img.tmpl.m == nil {
		img.tmpl.m = map[string]*templateSlot{}
	}
	key := ps.key()
	s, ok := img.tmpl.m[key]
	if !ok {
		s = &templateSlot{}
		img.tmpl.m[key] = s
	}
	img.tmpl.mu.Unlock()
	s.once.Do(func() {
		s.t, s.err = img.makeTemplate(context.WithoutCancel(ctx), ps)
		s.made.Store(true)
	})
	return s.t, s.err
}

// snapStderr arms the walltime hook when the template prints its marker.
type snapStderr struct {
	mu    sync.Mutex
	armed bool
	ids   [4]uint32
	buf   bytes.Buffer
}

func (w *snapStderr) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	s := w.buf.String()
	if i := strings.Index(s, snapshotMarker); i >= 0 && strings.Contains(s[i:], "\n") {
		if n, _ := fmt.Sscanf(s[i+len(snapshotMarker):], "%d %d %d %d", &w.ids[0], &w.ids[1], &w.ids[2], &w.ids[3]); n == 4 {
			w.armed = true
		}
	}
	return len(p), nil
}

func (img *Image) makeTemplate(ctx context.Context, ps *prestart) (*pyTemplate, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	se := &snapStderr{}
	var (
		mod      api.Module
		mem      []byte
		sp       uint32
		captured bool
	)
	wall := func() (int64, int32) {
		se.mu.Lock()
		if se.armed && !captured {
			captured = true
			b, _ := mod.Memory().Read(0, mod.Memory().Size())
			mem = append([]byte(nil), b...)
			if g := mod.ExportedGlobal(entrySP); g != nil {
				sp = uint32(g.Get())
			}
		}
		se.mu.Unlock()
		n := time.Now()
		return n.Unix(), int32(n.Nanosecond())
	}
	env := maps.Clone(ps.env)
	env["PWD"] = "/"
	empty := newLookupFS(img.templateFiles())
	cfg := moduleConfig([]string{ps.argv0, "-c", prestartProgram, "agentenkit-template"}, env, strings.NewReader(""), io.Discard, se, img.mounts(empty, img.site, img.stdlib), ctx).
		WithWalltime(wall, 1).WithStartFunctions()
	alloc := img.allocator(0, nil)
	alloc.start()
	defer alloc.done()
	var err error
	if mod, err = img.e.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, alloc), img.compiled, cfg); err != nil {
		return nil, err
	}
	start := mod.ExportedFunction("_start")
	if start == nil || mod.ExportedFunction(entryCall) == nil || mod.ExportedGlobal(entrySP) == nil {
		mod.Close(ctx)
		return nil, errors.New("engine: clone: the image lacks the entry exports")
	}
	_, err = start.Call(ctx)
	mod.Close(ctx)
	if !captured {
		return nil, fmt.Errorf("engine: clone: no snapshot (%v): %s", err, se.buf.String())
	}
	t := &pyTemplate{sp: sp, ids: se.ids, looked: empty.answers()}
	// exec's PyCFunctionObject: m_ml at +8; its PyMethodDef: ml_meth at +4,
	// ml_flags at +8, which must be METH_FASTCALL|METH_KEYWORDS.
	u32 := func(at uint32) uint32 {
		if uint64(at)+4 > uint64(len(mem)) {
			return 0
		}
		return binary.LittleEndian.Uint32(mem[at:])
	}
	ml := u32(t.ids[1] + 8)
	if u32(ml+8) != 0x82 {
		return nil, errors.New("engine: clone: builtins.exec is not laid out as expected")
	}
	t.meth = u32(ml + 4)
	if t.image, err = newDataImage(mem); err != nil {
		return nil, err
	}
	return t, nil
}

// startClone runs w as a clone of t, configured by cfg, and waits until it
// asks for its request.
func (w *Warm) startClone(ctx context.Context, cfg wazero.ModuleConfig, t *pyTemplate) (*Warm, error) {
	w.alloc.snap = t.image
	return w.run0(ctx, cfg.WithStartFunctions(), func(mod api.Module) error {
		mem := mod.Memory()
		want := uint32((len(t.image.bytes) + 0xffff) >> 16)
		if have := mem.Size() >> 16; want > have {
			if _, ok := mem.Grow(want - have); !ok {
				return errors.New("engine: clone: the memory cap is under the template's")
			}
		}
		sp := t.sp - 256
		args := sp + 64
		if !mem.WriteUint32Le(args, t.ids[2]) || !mem.WriteUint32Le(args+4, t.ids[3]) {
			return errors.New("engine: clone: stack out of range")
		}
		mod.ExportedGlobal(entrySP).(api.MutableGlobal).Set(uint64(sp))
		_, err := mod.ExportedFunction(entryCall).Call(w.base, uint64(t.meth), uint64(t.ids[0]), uint64(args), 2, 0)
		if err == nil {
			err = errors.New("engine: clone: _agentenkit_serve returned")
		}
		return err
	})
}

// lookupFS is the template's "/": base (no files when nil), and a record
// of every path CPython's start looked up in it. A clone serves a sandbox
// only where each of them looks the same (pyTemplate.serves), so that its
// start would have gone the same way there.
type lookupFS struct {
	experimentalsys.FS
	mu    sync.Mutex
	paths map[string]bool
}

func newLookupFS(base experimentalsys.FS) *lookupFS {
	if base == nil {
		base = &sysfs.AdaptFS{FS: fstest.MapFS{}}
	}
	return &lookupFS{FS: base, paths: map[string]bool{}}
}

// SetTemplateFiles sets the files the start of img's Python templates sees
// at "/" (none by default) unless a call set them before: the first call's
// stay, for the templates made from then on. A template serves a sandbox
// only where every path its start looked up looks the same there
// (pyTemplate.serves), so a template made on files like the sandboxes'
// (the wasm adapter's system folders: /bin/python3 is there) serves them,
// and one made on other files is never wrong, only of no use. fsys must
// not change.
func (img *Image) SetTemplateFiles(fsys experimentalsys.FS) {
	img.tmpl.mu.Lock()
	if img.tmpl.files == nil {
		img.tmpl.files = fsys
	}
	img.tmpl.mu.Unlock()
}

// templateFiles is what SetTemplateFiles set, or nil.
func (img *Image) templateFiles() experimentalsys.FS {
	img.tmpl.mu.Lock()
	defer img.tmpl.mu.Unlock()
	return img.tmpl.files
}

func (l *lookupFS) saw(p string) {
	l.mu.Lock()
	l.paths[p] = true
	l.mu.Unlock()
}

func (l *lookupFS) OpenFile(p string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	l.saw(p)
	return l.FS.OpenFile(p, flag, perm)
}

func (l *lookupFS) Lstat(p string) (sys.Stat_t, experimentalsys.Errno) {
	l.saw(p)
	return l.FS.Lstat(p)
}

func (l *lookupFS) Stat(p string) (sys.Stat_t, experimentalsys.Errno) {
	l.saw(p)
	return l.FS.Stat(p)
}

func (l *lookupFS) Readlink(p string) (string, experimentalsys.Errno) {
	l.saw(p)
	return l.FS.Readlink(p)
}

// looked is what the start looked up, the root left out, and the roots of
// PythonUsrMounts: wasi-libc opens every mount's root at the start, and a
// clone's are folders too (subFS), whatever the sandbox holds there.
func (l *lookupFS) looked() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for p := range l.paths {
		if p != "" && p != "." && p != "/" && !slices.Contains(PythonUsrMounts, "/"+p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// answers is what the start looked up (looked), with what an lstat of
// each says in the template's files.
func (l *lookupFS) answers() []lookup {
	var out []lookup
	for _, p := range l.looked() {
		st, errno := l.FS.Lstat(p)
		out = append(out, lookup{path: p, errno: errno, typ: st.Mode.Type()})
	}
	return out
}

// serves reports whether every path t's start looked up looks in fsys as
// it did in the template's files: missing (the same error) there too, or
// there with the same type.
func (t *pyTemplate) serves(fsys experimentalsys.FS) bool {
	if fsys == nil {
		return true
	}
	for _, l := range t.looked {
		st, errno := fsys.Lstat(l.path)
		if errno != l.errno || errno == 0 && st.Mode.Type() != l.typ {
			return false
		}
	}
	return true
}
