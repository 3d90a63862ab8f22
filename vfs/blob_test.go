package vfs

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// model is what a blob should hold: one plain slice.
type model []byte

func (m *model) writeAt(p []byte, off int64) {
	if end := off + int64(len(p)); end > int64(len(*m)) {
		*m = append(*m, make([]byte, end-int64(len(*m)))...)
	}
	copy((*m)[off:], p)
}

func (m *model) truncate(size int64) {
	if size <= int64(len(*m)) {
		*m = (*m)[:size]
		return
	}
	*m = append(*m, make([]byte, size-int64(len(*m)))...)
}

// checkBlob compares the whole content.
func checkBlob(t *testing.T, b *blob, m model) {
	t.Helper()
	require.Equal(t, int64(len(m)), b.Size())
	got := make([]byte, len(m)+7)
	n := b.ReadAt(got, 0)
	require.Equal(t, len(m), n)
	require.True(t, bytes.Equal(m, got[:n]), "content differs")
}

func TestBlob(t *testing.T) {
	seq := func(n int, seed byte) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = seed + byte(i%251)
		}
		return b
	}
	for _, c := range []struct {
		name string
		ops  func(b *blob, m *model)
	}{
		{"small appends", func(b *blob, m *model) {
			for i := range 100 {
				p := seq(i*13+1, byte(i))
				b.WriteAt(p, b.Size())
				m.writeAt(p, int64(len(*m)))
			}
		}},
		{"across pieces", func(b *blob, m *model) {
			p := seq(3*blobChunk+5, 1)
			b.WriteAt(p, blobChunk-3)
			m.writeAt(p, blobChunk-3)
		}},
		{"hole then write", func(b *blob, m *model) {
			b.WriteAt([]byte("end"), 5*blobChunk+10)
			m.writeAt([]byte("end"), 5*blobChunk+10)
		}},
		{"shrink then grow reads zeros", func(b *blob, m *model) {
			p := seq(blobChunk+100, 9)
			b.WriteAt(p, 0)
			m.writeAt(p, 0)
			b.Truncate(10)
			m.truncate(10)
			b.Truncate(blobChunk + 50)
			m.truncate(blobChunk + 50)
			b.WriteAt([]byte("x"), 40)
			m.writeAt([]byte("x"), 40)
		}},
		{"shrink inside a piece, write past the old length", func(b *blob, m *model) {
			p := seq(1000, 3)
			b.WriteAt(p, 0)
			m.writeAt(p, 0)
			b.Truncate(100)
			m.truncate(100)
			b.WriteAt([]byte("yz"), 500)
			m.writeAt([]byte("yz"), 500)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b blob
			var m model
			c.ops(&b, &m)
			checkBlob(t, &b, m)
		})
	}
}

// TestBlobCostsItsSize: a big file written in small pieces holds about its
// size, not a growing slice's doubled capacity.
func TestBlobCostsItsSize(t *testing.T) {
	var b blob
	p := make([]byte, 4096)
	const size = 32 << 20
	for off := int64(0); off < size; off += int64(len(p)) {
		b.WriteAt(p, off)
	}
	held := 0
	for _, c := range b.chunks {
		held += cap(c)
	}
	assert.LessOrEqual(t, held, size+blobChunk)
}

// FuzzBlob runs random writes and truncates against a plain slice.
func FuzzBlob(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add(bytes.Repeat([]byte{0xff, 0x01, 0x80}, 40))
	f.Fuzz(func(t *testing.T, ops []byte) {
		var b blob
		var m model
		for len(ops) >= 5 {
			kind := ops[0]
			off := int64(binary.LittleEndian.Uint32(ops[1:5]) % (4 * blobChunk))
			ops = ops[5:]
			switch kind % 3 {
			case 0, 1:
				n := min(len(ops), int(kind))
				b.WriteAt(ops[:n], off)
				m.writeAt(ops[:n], off)
			case 2:
				b.Truncate(off)
				m.truncate(off)
			}
		}
		checkBlob(t, &b, m)
	})
}
