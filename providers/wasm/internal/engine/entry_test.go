package engine

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// entryModule is a module by hand: add(a, b, c, d) = a+b+c+d, in table 0
// at 0; global 0 a mutable i32 (100); imports as given.
func entryModule(imports []byte, global byte) []byte {
	sec := func(id byte, body ...byte) []byte { return append([]byte{id, byte(len(body))}, body...) }
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, sec(1, 1, 0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7f)...)
	if imports != nil {
		m = append(m, sec(2, imports...)...)
	}
	m = append(m, sec(3, 1, 0)...)
	m = append(m, sec(4, 1, 0x70, 0, 1)...)
	m = append(m, sec(6, 1, 0x7f, global, 0x41, 0xe4, 0x00, 0x0b)...)
	m = append(m, sec(7, 1, 3, 'a', 'd', 'd', 0, 0)...)
	m = append(m, sec(9, 1, 0, 0x41, 0, 0x0b, 1, 0)...)
	body := []byte{0, 0x20, 0, 0x20, 1, 0x6a, 0x20, 2, 0x6a, 0x20, 3, 0x6a, 0x0b}
	m = append(m, sec(10, append([]byte{1, byte(len(body))}, body...)...)...)
	return m
}

func TestAddEntry(t *testing.T) {
	ctx := context.Background()
	out, err := addEntry(entryModule(nil, 1))
	if err != nil {
		t.Fatal(err)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	mod, err := rt.Instantiate(ctx, out)
	if err != nil {
		t.Fatalf("the rewritten module does not instantiate: %v", err)
	}
	res, err := mod.ExportedFunction(entryCall).Call(ctx, 0, 1, 2, 3, 4)
	if err != nil || len(res) != 1 || res[0] != 10 {
		t.Fatalf("%s(0, 1, 2, 3, 4) = %v, %v; want 10 (table entry 0 is add)", entryCall, res, err)
	}
	if _, err := mod.ExportedFunction(entryCall).Call(ctx, 1, 1, 2, 3, 4); err == nil {
		t.Error("a table entry out of range did not trap")
	}
	if res, err := mod.ExportedFunction("add").Call(ctx, 5, 5, 5, 5); err != nil || res[0] != 20 {
		t.Errorf("the module's own export changed: %v, %v", res, err)
	}
	sp, ok := mod.ExportedGlobal(entrySP).(api.MutableGlobal)
	if !ok {
		t.Fatalf("%s is not exported as a mutable global", entrySP)
	}
	if sp.Get() != 100 {
		t.Errorf("%s = %d, want 100", entrySP, sp.Get())
	}
	sp.Set(7)
	if sp.Get() != 7 {
		t.Errorf("%s after Set(7) = %d", entrySP, sp.Get())
	}

	// One function import, f: it is function 0 now, the one table entry 0
	// and the "add" export name; the new function's index counts it.
	imp := []byte{1, 1, 'm', 1, 'f', 0, 0}
	out, err = addEntry(entryModule(imp, 1))
	if err != nil {
		t.Fatal(err)
	}
	host, err := rt.NewHostModuleBuilder("m").NewFunctionBuilder().
		WithFunc(func(a, b, c, d int32) int32 { return 42 + a }).Export("f").Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close(ctx)
	mod, err = rt.InstantiateWithConfig(ctx, out, wazero.NewModuleConfig().WithName("with-import"))
	if err != nil {
		t.Fatalf("with an import: %v", err)
	}
	if res, err := mod.ExportedFunction(entryCall).Call(ctx, 0, 1, 1, 1, 1); err != nil || res[0] != 43 {
		t.Errorf("with an import: %v, %v; want 43 (f through table entry 0)", res, err)
	}
}

func TestAddEntryRefuses(t *testing.T) {
	for name, m := range map[string][]byte{
		"not wasm":          []byte("hello, world"),
		"truncated":         entryModule(nil, 1)[:20],
		"immutable global":  entryModule(nil, 0),
		"imports a memory":  entryModule([]byte{1, 1, 'm', 1, 'x', 2, 0, 1}, 1),
		"no global section": []byte("\x00asm\x01\x00\x00\x00\x01\x01\x00"),
	} {
		if _, err := addEntry(m); !errors.Is(err, errEntryShape) {
			t.Errorf("%s: %v, want errEntryShape", name, err)
		}
	}
}

// The python image takes the rewrite and still compiles.
func TestAddEntryPython(t *testing.T) {
	_, py := python(t)
	b, err := addEntry(mustRead(t, py.path))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	cm, err := rt.CompileModule(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cm.ExportedFunctions()[entryCall]; !ok {
		t.Errorf("no %s export", entryCall)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzAddEntry: any bytes give a module or errEntryShape, never a panic,
// and a module it returns takes the rewrite again.
func FuzzAddEntry(f *testing.F) {
	f.Add(entryModule(nil, 1))
	f.Add(entryModule([]byte{1, 1, 'm', 1, 'f', 0, 0}, 1))
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := addEntry(b)
		if err != nil {
			if !errors.Is(err, errEntryShape) {
				t.Fatalf("error %v is not errEntryShape", err)
			}
			return
		}
		if _, err := addEntry(out); err != nil {
			t.Fatalf("its own output refused: %v", err)
		}
	})
}
