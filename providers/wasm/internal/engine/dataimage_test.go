package engine

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/images"
)

// dataSection builds a data section of active segments at the given
// offsets.
func dataSection(segs map[int][]byte, order []int) []byte {
	body := []byte{byte(len(order))}
	for _, off := range order {
		body = append(body, 0, 0x41)
		body = appendSleb(body, int32(off))
		body = append(body, 0x0b, byte(len(segs[off])))
		body = append(body, segs[off]...)
	}
	return body
}

func appendSleb(b []byte, v int32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func TestLayOut(t *testing.T) {
	segs := map[int][]byte{0: []byte("ab"), 100: []byte("xyz"), 101: []byte("Q")}
	img, err := layOut(dataSection(segs, []int{100, 0, 101}), 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, 103)
	copy(want, "ab")
	copy(want[100:], "xQz") // later segments win, as wazero applies them
	if !bytes.Equal(img, want) {
		t.Fatalf("image %q", img)
	}
	if _, err := layOut(dataSection(map[int][]byte{70000: []byte("x")}, []int{70000}), 1<<16); err == nil {
		t.Error("a segment past the initial memory was laid out")
	}
	passive := []byte{1, 1, 1, 'p'} // one passive segment
	if _, err := layOut(passive, 1<<16); err == nil {
		t.Error("a passive segment was laid out")
	}
}

// The data of a real module, laid out and mapped, is what wazero would
// have copied; python runs from it (every python test does).
func TestSplitDataOfPython(t *testing.T) {
	_, py := python(t)
	if !canMapData {
		t.Skip("data images are mapped on Linux only")
	}
	if py.data == nil {
		t.Fatal("python.wasm's data was not split out")
	}
	raw, err := os.ReadFile(py.path)
	if err != nil {
		t.Fatal(err)
	}
	stripped, image, ok := splitData(raw)
	if !ok || len(stripped) >= len(raw)-len(image)/2 {
		t.Fatalf("ok %v, %d bytes stripped to %d, image %d", ok, len(raw), len(stripped), len(image))
	}
	// The engine's image may be the cache's page-padded file: the same
	// bytes, then zeros to the page.
	if d := py.data; d.size < len(image) || d.size >= len(image)+os.Getpagesize() || len(d.bytes) != d.size ||
		!bytes.Equal(d.bytes[:len(image)], image) || bytes.ContainsFunc(d.bytes[len(image):], func(r rune) bool { return r != 0 }) {
		t.Fatalf("the engine's data image (%d bytes) is not the module's (%d bytes) padded to a page", d.size, len(image))
	}
	a := &capAllocator{limit: 64 << 20, data: py.data}
	m := a.Allocate(0, 1<<32)
	mem := m.Reallocate(uint64(len(image)+1<<16) &^ (1<<16 - 1))
	if !bytes.Equal(mem[:len(image)], image) {
		t.Fatal("the mapped memory is not the image")
	}
	mem[0] ^= 0xff // copy-on-write: the image itself is untouched
	m2 := a.Allocate(0, 1<<32)
	mem2 := m2.Reallocate(uint64(len(mem)))
	if mem2[0] != image[0] {
		t.Fatal("a write to one instance's memory reached another's")
	}
	m.Free()
	m2.Free()
}

// Closing the engine while a guest runs on mapped memory ends the guest; the
// mapping outlives the run, so nothing faults.
func TestCloseWhileRunning(t *testing.T) {
	python(t)
	paths, _ := images.Find("")
	ctx := context.Background()
	e, err := New(ctx, Options{CacheDir: paths.CompileCache})
	if err != nil {
		t.Fatal(err)
	}
	py, err := e.Load(ctx, Python, testPyWasm)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := py.Run(ctx, RunSpec{Args: pyc("x = bytearray(1 << 20)\nwhile True: x[0] += 1")})
		done <- err
	}()
	time.Sleep(500 * time.Millisecond)
	if err := e.Close(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the guest ran on after Close")
	}
}

func TestMemoryBudget(t *testing.T) {
	b := NewMemoryBudget(6 << 16)
	a1 := &capAllocator{limit: 8 << 16, budget: b}
	a2 := &capAllocator{limit: 8 << 16, budget: b}
	m1, m2 := a1.Allocate(0, 1<<32), a2.Allocate(0, 1<<32)
	if m1.Reallocate(4<<16) == nil || m2.Reallocate(2<<16) == nil {
		t.Fatal("within the budget")
	}
	if m2.Reallocate(3<<16) != nil || !a2.over.Load() || !a2.hit.Load() {
		t.Fatal("grew past the budget shared with another instance")
	}
	m1.Free()
	if m2.Reallocate(5<<16) == nil {
		t.Fatal("the freed memory did not go back to the budget")
	}
	if b.Used() != 5<<16 {
		t.Errorf("used %d", b.Used())
	}
	m2.Free()
	if b.Used() != 0 {
		t.Errorf("used %d after both were freed", b.Used())
	}
}
