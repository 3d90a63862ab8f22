package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/sys"
)

// A sketch, not yet the engine's: a CPython snapshot taken in the engine's
// own setting (the split data image, the site and stdlib mounts) and cloned
// onto other sandboxes' files. See experiments/pyclone.
const cloneTemplate = `
import os, sys, time, builtins, gc, json
compile("pass", "<string>", "exec")
gc.collect(); gc.freeze()
def _serve():
    print(open("/x.txt").read(), json.dumps(sys.argv), os.getcwd())
    sys.stdout.flush()
    os._exit(7)
_code = compile("_serve()", "<clone>", "exec")
sys.stdout.flush()
os.write(2, b"SNAP %d %d %d %d\n" % (id(builtins), id(exec), id(_code), id(globals())))
time.time()
os._exit(0)
`

type snapshot struct {
	mem []byte
	sp  uint32
	ids [4]uint32 // builtins, exec, the code, __main__'s dict
}

// snapErr arms the walltime hook when the template prints its line.
type snapErr struct {
	mu    sync.Mutex
	armed bool
	s     *snapshot
	buf   bytes.Buffer
}

func (w *snapErr) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	line := w.buf.String()
	if i := strings.Index(line, "SNAP "); i >= 0 && strings.Contains(line[i:], "\n") {
		fmt.Sscanf(line[i:], "SNAP %d %d %d %d", &w.s.ids[0], &w.s.ids[1], &w.s.ids[2], &w.s.ids[3])
		w.armed = true
		w.buf.Reset()
	}
	return len(p), nil
}

func takeSnapshot(t *testing.T, img *Image) *snapshot {
	ctx := context.Background()
	empty, _ := testFS(t)
	se := &snapErr{s: &snapshot{}}
	var mod api.Module
	wall := func() (int64, int32) {
		se.mu.Lock()
		if se.armed {
			se.armed = false
			m, _ := mod.Memory().Read(0, mod.Memory().Size())
			se.s.mem = append([]byte(nil), m...)
			se.s.sp = uint32(mod.ExportedGlobal(entrySP).Get())
		}
		se.mu.Unlock()
		n := time.Now()
		return n.Unix(), int32(n.Nanosecond())
	}
	env := map[string]string{"PWD": "/"}
	pythonEnv(env, img.stdlib != nil)
	var out bytes.Buffer
	cfg := moduleConfig([]string{"python3", "-c", cloneTemplate}, env, strings.NewReader(""), &out, se, img.mounts(empty, img.site, img.stdlib), ctx).
		WithWalltime(wall, 1).WithStartFunctions()
	alloc := img.allocator(0, nil)
	alloc.start()
	defer alloc.done()
	var err error
	mod, err = img.e.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, alloc), img.compiled, cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = mod.ExportedFunction("_start").Call(ctx)
	mod.Close(ctx)
	if se.s.mem == nil {
		t.Fatalf("no snapshot: %v; stdout %q stderr %q", err, out.String(), se.buf.String())
	}
	return se.s
}

func TestCloneSketch(t *testing.T) {
	_, py := python(t)
	begin := time.Now()
	snap := takeSnapshot(t, py)
	t.Logf("template: %v, %d MiB, sp %d", time.Since(begin), len(snap.mem)>>20, snap.sp)
	ctx := context.Background()
	image, err := newDataImage(snap.mem)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		fsys, files := testFS(t)
		if err := files.WriteFile("/x.txt", []byte(fmt.Sprint("sandbox ", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		begin := time.Now()
		var out, errb bytes.Buffer
		env := map[string]string{"PWD": "/"}
		pythonEnv(env, py.stdlib != nil)
		cfg := moduleConfig([]string{"python3", "-c", "clone"}, env, strings.NewReader(""), &out, &errb, py.mounts(fsys, py.site, py.stdlib), ctx).WithStartFunctions()
		alloc := py.allocator(0, nil)
		alloc.snap = image
		alloc.start()
		mod, err := py.e.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, alloc), py.compiled, cfg)
		if err != nil {
			t.Fatal(err)
		}
		inst := time.Since(begin)
		mem := mod.Memory()
		if d := uint32(len(snap.mem)>>16) - mem.Size()>>16; d > 0 {
			if _, ok := mem.Grow(d); !ok {
				t.Fatal("grow")
			}
		}
		sp := snap.sp - 256
		args := sp + 64
		mem.WriteUint32Le(args, snap.ids[2])
		mem.WriteUint32Le(args+4, snap.ids[3])
		mod.ExportedGlobal(entrySP).(api.MutableGlobal).Set(uint64(sp))
		ml, _ := mem.ReadUint32Le(snap.ids[1] + 8)
		meth, _ := mem.ReadUint32Le(ml + 4)
		flags, _ := mem.ReadUint32Le(ml + 8)
		if flags != 0x82 {
			t.Fatalf("exec's ml_flags %#x, not METH_FASTCALL|METH_KEYWORDS: another layout", flags)
		}
		copied := time.Since(begin) - inst
		_, err = mod.ExportedFunction(entryCall).Call(ctx, uint64(meth), uint64(snap.ids[0]), uint64(args), 2, 0)
		mod.Close(ctx)
		alloc.done()
		var ee *sys.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 7 {
			t.Fatalf("clone %d: %v; stderr %q", i, err, errb.String())
		}
		// argv is the template's: a clone's own args reach CPython's
		// memory only through a request (as prestart.py's).
		want := fmt.Sprintf("sandbox %d [\"-c\"] /\n", i)
		if out.String() != want {
			t.Errorf("clone %d printed %q, want %q (stderr %q)", i, out.String(), want, errb.String())
		}
		t.Logf("clone %d: instantiate %v, snapshot mapped %v, all %v", i, inst, copied, time.Since(begin))
	}
}

// A clone serves only files where every path CPython's start looked up is
// missing, as in the template's.
func TestCloneLookups(t *testing.T) {
	_, py := python(t)
	tm, err := py.template(context.Background(), py.prestartFor("python3", map[string]string{"HOME": "/home/user"}))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the start looked up: %q", tm.looked)
	if len(tm.looked) == 0 {
		t.Fatal("the start looked up nothing in /: the record is not working")
	}
	fsys, files := testFS(t)
	if !tm.serves(fsys) {
		t.Error("an empty FS is not served")
	}
	if err := files.MkdirAll("/work", 0o755); err != nil {
		t.Fatal(err)
	}
	if !tm.serves(fsys) {
		t.Error("a folder the start never looks at stops clones")
	}
	if err := files.MkdirAll(tm.looked[len(tm.looked)-1], 0o755); err != nil {
		t.Fatal(err)
	}
	if tm.serves(fsys) {
		t.Errorf("%s exists, and the start looked it up: still served", tm.looked[len(tm.looked)-1])
	}
}
