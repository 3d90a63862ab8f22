package vfs

import (
	"sync"

	"github.com/spf13/afero/mem"
)

// blobChunk is the size of the pieces a regular file's content is kept in.
const blobChunk = 64 << 10

// blob is a regular file's content, kept in pieces of blobChunk bytes (the
// last one, and a small file's only one, no longer than it needs), so that
// a file of N bytes costs the host about N bytes: growing it never copies
// what it already holds, nor leaves old copies for the collector, as one
// growing slice does. A missing piece reads as zeros (a hole left by a
// write past the end or a truncate that grew the file).
type blob struct {
	mu     sync.RWMutex
	size   int64
	chunks [][]byte
}

// Size is the content's length.
func (b *blob) Size() int64 {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.size
}

// ReadAt copies the content at off into p and returns how many bytes it
// copied: fewer than len(p) only at the end (0 at or past it).
func (b *blob) ReadAt(p []byte, off int64) int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	n := 0
	for n < len(p) && off < b.size {
		i, o := off/blobChunk, off%blobChunk
		k := min(int64(len(p)-n), blobChunk-o, b.size-off)
		piece := p[n : n+int(k)]
		copied := 0
		if i < int64(len(b.chunks)) {
			if c := b.chunks[i]; o < int64(len(c)) {
				copied = copy(piece, c[o:])
			}
		}
		clear(piece[copied:])
		n += int(k)
		off += k
	}
	return n
}

// WriteAt writes p at off, growing the content (with a hole between its
// old end and off) when it goes past the end.
func (b *blob) WriteAt(p []byte, off int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	end := off + int64(len(p))
	if need := int((end + blobChunk - 1) / blobChunk); need > len(b.chunks) {
		b.chunks = append(b.chunks, make([][]byte, need-len(b.chunks))...)
	}
	for len(p) > 0 {
		i, o := off/blobChunk, int(off%blobChunk)
		k := min(len(p), blobChunk-o)
		c := b.chunks[i]
		if need := o + k; need > len(c) {
			switch {
			case need <= cap(c):
				if old := len(c); old < o {
					clear(c[old:o]) // what a truncate left behind
				}
				c = c[:need]
			default:
				// A piece is made whole at once when the file is past its
				// first piece (a big file being written); the first piece
				// of a small file grows as a slice does.
				size := need
				if i > 0 || need == blobChunk {
					size = blobChunk
				} else {
					size = min(blobChunk, max(need, 2*cap(c)))
				}
				nc := make([]byte, need, size)
				copy(nc, c)
				c = nc
			}
		}
		copy(c[o:], p[:k])
		b.chunks[i] = c
		p = p[k:]
		off += int64(k)
	}
	b.size = max(b.size, end)
}

// Truncate sets the length: shrinking drops the pieces past it, growing
// leaves a hole.
func (b *blob) Truncate(size int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if size < b.size {
		keep := int((size + blobChunk - 1) / blobChunk)
		if keep < len(b.chunks) {
			clear(b.chunks[keep:])
			b.chunks = b.chunks[:keep]
		}
		if rem := int(size % blobChunk); rem > 0 && keep > 0 && keep <= len(b.chunks) && len(b.chunks[keep-1]) > rem {
			b.chunks[keep-1] = b.chunks[keep-1][:rem]
		}
	}
	b.size = size
}

// blobOf returns the content of the regular file data, making an empty one
// when it has none yet.
func (f *FS) blobOf(data *mem.FileData) *blob {
	f.bmu.Lock()
	defer f.bmu.Unlock()
	b := f.blobs[data]
	if b == nil {
		b = new(blob)
		f.blobs[data] = b
	}
	return b
}

// dropBlob forgets the content of a file no longer in the tree nor open
// for writing (open readers keep theirs).
func (f *FS) dropBlob(data *mem.FileData) {
	f.bmu.Lock()
	defer f.bmu.Unlock()
	delete(f.blobs, data)
}

// blobSize is the size of a regular file's content.
func (f *FS) blobSize(data *mem.FileData) int64 {
	f.bmu.Lock()
	b := f.blobs[data]
	f.bmu.Unlock()
	if b == nil {
		return 0
	}
	return b.Size()
}
