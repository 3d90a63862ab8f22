package engine

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	mathrand "math/rand/v2"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// A Go image built as a reactor (-buildmode=c-shared for wasip1, as
// `make images` builds busybox) exports _initialize, which runs Go's
// runtime and package init and returns to the host with an empty wasm
// stack, and the image's own entry points: agentenkit_main (the command,
// as main would run it) and agentenkit_serve (WarmProtocol's loop).
//
// Such an image's warm instances start from a snapshot: once per Image the
// engine runs _initialize in a template instance (on an empty "/" that
// records every path the init looked up, as a Python template's does),
// copies its memory and its mutable globals (exported by addGlobalExports)
// and closes it. Each NewWarm is then a new instance with no start
// function, the template's memory mapped copy-on-write (capMemory), its
// globals set, and agentenkit_serve called: the same state a new
// instance's _initialize would reach, without Go's init (about 25 ms of
// the busybox image's start).
//
// What the init captured and a clone must not share with the template:
//
//   - The runtime's random state (map seeds, select and scheduling order,
//     math/rand and math/rand/v2's global generators, hash/maphash seeds
//     made later): the per-M ChaCha8 state is found in the template's
//     memory (findRuntimeRand) and given a new seed from crypto/rand in
//     each clone. A template where it cannot be found exactly is not used.
//     crypto/rand reads WASI's random_get at each call: nothing to do.
//   - argv and the environment: the template's are a new warm instance's
//     own ([name], AGENTENKIT_WARM=1, PWD=/); each command brings its
//     own in its request.
//   - The preopened "/" (fd 3): the same mount in both; the sandbox's files
//     are the clone's. The paths the init looked up must be missing there
//     too (as for a Python template), or the clone is not used.
//   - Clocks: read through WASI at each call; the runtime's monotonic
//     base is the template's, on the same host clock (nanotime).
//
// Where memory cannot be mapped, with Options.NoClones, or when the
// template cannot be made, NewWarm runs _initialize itself.

// A reactor image's exports.
const (
	reactorInit  = "_initialize"
	reactorServe = "agentenkit_serve"
	reactorMain  = "agentenkit_main"
)

// isReactor reports whether cm is a Go reactor with the image's entry
// points.
func isReactor(cm wazero.CompiledModule) bool {
	fns := cm.ExportedFunctions()
	_, init := fns[reactorInit]
	_, serve := fns[reactorServe]
	_, main := fns[reactorMain]
	return init && serve && main
}

type shellTemplate struct {
	image   *dataImage
	globals []uint64 // the mutable globals, by addGlobalExports' numbering
	looked  []string // the paths of "/" the init looked up, none there
	rand    uint32   // where the runtime's per-M ChaCha8 state is
}

type shellSlot struct {
	once sync.Once
	t    *shellTemplate
	err  error
}

// shellTemplate is img's template, made at the first call.
func (img *Image) shellTemplate(ctx context.Context) (*shellTemplate, error) {
	img.shellTmpl.once.Do(func() {
		img.shellTmpl.t, img.shellTmpl.err = img.makeShellTemplate(context.WithoutCancel(ctx))
	})
	return img.shellTmpl.t, img.shellTmpl.err
}

// warmStartEnv is the environment of every new warm instance.
func warmStartEnv() map[string]string { return map[string]string{WarmEnv: "1", "PWD": "/"} }

func (img *Image) makeShellTemplate(ctx context.Context) (*shellTemplate, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	empty := newLookupFS(nil)
	w := img.newWarm(ctx, WarmSpec{FS: empty}, nil) // its stdio: a clone's kind of files
	defer w.kill()
	seed := &seedReader{}
	cfg := w.config([]string{img.name}, warmStartEnv(), img.mounts(empty, nil, nil)).
		WithRandSource(seed).WithStartFunctions()
	alloc := img.allocator(0, nil)
	alloc.start()
	defer alloc.done()
	mod, err := img.e.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, alloc), img.compiled, cfg)
	if err != nil {
		return nil, fmt.Errorf("engine: shell template: %w", err)
	}
	defer mod.Close(ctx)
	if _, err := mod.ExportedFunction(reactorInit).Call(ctx); err != nil {
		return nil, fmt.Errorf("engine: shell template: init: %w", err)
	}
	b, ok := mod.Memory().Read(0, mod.Memory().Size())
	if !ok {
		return nil, errors.New("engine: shell template: memory unreadable")
	}
	mem := bytes.Clone(b)
	t := &shellTemplate{looked: empty.looked()}
	for k := 0; ; k++ {
		g := mod.ExportedGlobal(fmt.Sprint(globalPrefix, k))
		if g == nil {
			break
		}
		t.globals = append(t.globals, g.Get())
	}
	if len(t.globals) == 0 {
		return nil, errors.New("engine: shell template: the image's globals are not exported")
	}
	first, ok := seed.first()
	if !ok {
		return nil, errors.New("engine: shell template: the runtime read no random seed")
	}
	if t.rand, err = findRuntimeRand(mem, first); err != nil {
		return nil, err
	}
	if t.image, err = newDataImage(mem); err != nil {
		return nil, err
	}
	return t, nil
}

// startReactor starts w, an instance of a reactor image configured by cfg
// (without start functions chosen), from img's template where it serves
// fsys, else with its own _initialize; then it serves requests.
func (w *Warm) startReactor(ctx context.Context, cfg wazero.ModuleConfig, fsys experimentalsys.FS) (*Warm, error) {
	img := w.img
	if img.ClonesShells() {
		if t, err := img.shellTemplate(ctx); err == nil && missingAll(fsys, t.looked) {
			return w.startShellClone(ctx, cfg, t)
		}
	}
	return w.run0(ctx, cfg.WithStartFunctions(reactorInit), func(mod api.Module) error {
		_, err := mod.ExportedFunction(reactorServe).Call(w.base)
		return err
	})
}

func (w *Warm) startShellClone(ctx context.Context, cfg wazero.ModuleConfig, t *shellTemplate) (*Warm, error) {
	w.alloc.snap = t.image
	w.shell = t
	w.img.shellClones.Add(1)
	return w.run0(ctx, cfg.WithStartFunctions(), func(mod api.Module) error {
		mem := mod.Memory()
		want := uint32(len(t.image.bytes) >> 16)
		if have := mem.Size() >> 16; want > have {
			if _, ok := mem.Grow(want - have); !ok {
				return errors.New("engine: shell clone: the memory cap is under the template's")
			}
		}
		for {
			if mem.Size() != uint32(len(t.image.bytes)) {
				return errors.New("engine: shell clone: the memory is not the template's size")
			}
			if err := reseedRuntimeRand(mem, t.rand); err != nil {
				return err
			}
			for k, v := range t.globals {
				g, ok := mod.ExportedGlobal(fmt.Sprint(globalPrefix, k)).(api.MutableGlobal)
				if !ok {
					return errors.New("engine: shell clone: a global is missing")
				}
				g.Set(v)
			}
			_, err := mod.ExportedFunction(reactorServe).Call(w.base)
			if !errors.Is(err, errRecycle) {
				return err
			}
			// Recycle: the guest's stack is gone; its memory goes back to
			// the template's before it serves again.
			if !w.alloc.relay() {
				return errors.New("engine: shell clone: the memory cannot be laid again")
			}
		}
	})
}

// missingAll reports whether fsys lacks every one of paths (nil fsys: no
// files at all).
func missingAll(fsys experimentalsys.FS, paths []string) bool {
	if fsys == nil {
		return true
	}
	for _, p := range paths {
		if _, errno := fsys.Lstat(p); errno != experimentalsys.ENOENT {
			return false
		}
	}
	return true
}

// callMain runs a reactor's command entry point on mod, whose _initialize
// has run.
func callMain(ctx context.Context, mod api.Module) error {
	_, err := mod.ExportedFunction(reactorMain).Call(ctx)
	return err
}

// seedReader is crypto/rand that keeps the first 32 bytes read at once:
// Go's runtime reads its 32-byte seed at the very start (randinit).
type seedReader struct {
	mu   sync.Mutex
	seed []byte
}

func (s *seedReader) Read(p []byte) (int, error) {
	n, err := io.ReadFull(rand.Reader, p)
	s.mu.Lock()
	if s.seed == nil && n == 32 {
		s.seed = bytes.Clone(p[:n])
	}
	s.mu.Unlock()
	return n, err
}

func (s *seedReader) first() ([32]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b [32]byte
	return b, copy(b[:], s.seed) == 32
}

// The Go runtime's random state (runtime/rand.go): randinit seeds the
// global ChaCha8 state with 32 bytes of random_get; mrandinit seeds m0's
// own state (runtime.m.chacha8, the one rand() draws from; a wasm program
// has only m0) with the global state's first four outputs, and sets
// m.cheaprand, the field after it. A ChaCha8 state (internal/chacha8rand)
// is laid out as buf [32]uint64, seed [4]uint64, i, n, c uint32; every
// ctrMax/ctrInc blocks it reseeds itself from its own output.
const (
	randSeedAt      = 256 // seed, from the state's start
	randIAt         = 288
	randNAt         = 292
	randCAt         = 296
	randCheapAt     = 304 // m.cheaprand
	randStateChunk  = 32
	randChainLength = 1 << 20 // outputs of m0's state followed in its reseeds
	randSkip        = 4       // global outputs drawn before m0's seed (hashkey)
)

// findRuntimeRand returns where m0's ChaCha8 state is in mem, an instance's
// memory after Go's init whose runtime was seeded with seed: of the
// genuine states in mem (their buffer is the ChaCha8 block of their seed
// and counter), the one whose seed is m0's first, derived as mrandinit
// does, or one of its own reseeds after it, followed for at most
// randChainLength outputs. It must be the only one.
func findRuntimeRand(mem []byte, seed [32]byte) (uint32, error) {
	// Before mrandinit, alginit draws four words for hashkey (wasm has no
	// AES hash); after it, bootstrapRandReseed draws the global state's
	// next seed: m0's seed is the global's fifth to eighth outputs, the
	// global's own the ninth to twelfth.
	global := mathrand.NewChaCha8(seed)
	var m0, g [32]byte
	for i := range randSkip + 8 {
		x := global.Uint64()
		switch {
		case i >= randSkip+4:
			binary.LittleEndian.PutUint64(g[8*(i-randSkip-4):], x)
		case i >= randSkip:
			binary.LittleEndian.PutUint64(m0[8*(i-randSkip):], x)
		}
	}
	cands := map[[32]byte][]int{}
	for base := 0; base+randCheapAt+8 <= len(mem); base += 8 {
		n := binary.LittleEndian.Uint32(mem[base+randNAt:])
		if n != randStateChunk && n != randStateChunk-4 {
			continue
		}
		var s [32]byte
		copy(s[:], mem[base+randSeedAt:])
		if s != g && genuineRand(mem[base:], s) {
			cands[s] = append(cands[s], base)
		}
	}
	var at []int
	chain := mathrand.NewChaCha8(m0)
	for i := 0; i < randChainLength && len(cands) > 0; i++ {
		// A state draws chunk*ctrMax/ctrInc-reseed (124) outputs per
		// seed: the first output of each period is made from its seed.
		chain.Uint64()
		if i%124 != 0 {
			continue
		}
		b, err := chain.MarshalBinary()
		if err != nil || len(b) != 48 || string(b[:8]) != "chacha8:" {
			return 0, errors.New("engine: shell template: ChaCha8's state is of another form")
		}
		s := [32]byte(b[16:])
		if bases, ok := cands[s]; ok {
			at = append(at, bases...)
			delete(cands, s)
		}
	}
	switch len(at) {
	case 0:
		return 0, errors.New("engine: shell template: the runtime's random state not found")
	case 1:
		return uint32(at[0]), nil
	}
	return 0, fmt.Errorf("engine: shell template: the runtime's random state is ambiguous (at %#x)", at)
}

// genuineRand reports whether st (from a state's start) is a ChaCha8 state
// with seed: its counters in range and its buffer the block they name.
func genuineRand(st []byte, seed [32]byte) bool {
	i := binary.LittleEndian.Uint32(st[randIAt:])
	n := binary.LittleEndian.Uint32(st[randNAt:])
	c := binary.LittleEndian.Uint32(st[randCAt:])
	if (n != randStateChunk && n != randStateChunk-4) || i > n || c%4 != 0 || c >= 16 {
		return false
	}
	b := make([]byte, 0, 48)
	b = append(b, "chacha8:"...)
	b = binary.BigEndian.AppendUint64(b, uint64(c/4*randStateChunk))
	b = append(b, seed[:]...)
	var r mathrand.ChaCha8
	if r.UnmarshalBinary(b) != nil {
		return false
	}
	return r.Uint64() == binary.LittleEndian.Uint64(st)
}

// reseedRuntimeRand gives the ChaCha8 state at "at" in mem a new random
// seed, empties its buffer so that the next draw makes a block of that
// seed (with a counter that does not reseed it from the old block), and
// a new m.cheaprand.
func reseedRuntimeRand(mem api.Memory, at uint32) error {
	var fresh [40]byte
	if _, err := rand.Read(fresh[:]); err != nil {
		return fmt.Errorf("engine: shell clone: %w", err)
	}
	ok := mem.Write(at, make([]byte, randSeedAt)) &&
		mem.Write(at+randSeedAt, fresh[:32]) &&
		mem.WriteUint32Le(at+randIAt, randStateChunk) &&
		mem.WriteUint32Le(at+randNAt, randStateChunk) &&
		mem.WriteUint32Le(at+randCAt, 0) &&
		mem.Write(at+randCheapAt, fresh[32:])
	if !ok {
		return errors.New("engine: shell clone: the random state is out of range")
	}
	return nil
}

// PrewarmShell makes, now, the template img's warm instances are cloned
// from, so that even the first NewWarm of a process starts from it; a
// long-lived process calls it once at start. It does nothing for an image
// that is not a reactor or where clones are off (Options.NoClones, or
// memory cannot be mapped here). An error says why there is no template:
// NewWarm then runs each instance's own init, as without one.
func (img *Image) PrewarmShell(ctx context.Context) error {
	if !img.ClonesShells() {
		return nil
	}
	_, err := img.shellTemplate(ctx)
	return err
}

// ShellClones is how many warm instances of img started from its template
// so far; a spare made a spare again by Recycle counts once more.
func (img *Image) ShellClones() int64 { return img.shellClones.Load() }

// ClonesShells reports whether img's warm instances start from a
// template: a reactor image, where memory can be mapped and clones are on.
func (img *Image) ClonesShells() bool {
	return img.reactor && canMapData && !img.e.opts.NoClones
}
