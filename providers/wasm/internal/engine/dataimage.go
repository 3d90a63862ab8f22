package engine

import "errors"

// A module's data segments are copied into every new instance's memory by
// wazero, one segment at a time: a Go program for wasip1 has 100 000 of
// them (about 12 MB for the busybox image), which costs about 12 ms per
// instance. Where memory can be mapped (Linux), the engine instead lays the
// segments out once, at Load, into a memory image kept in a file, compiles
// the module without its data section, and maps the image copy-on-write
// into each instance's memory when it is made (capMemory): nothing is
// copied, the pages are read from the page cache as the guest touches them,
// and instances share every page they do not write.

// dataImage is a module's initial memory contents.
type dataImage struct {
	size  int    // bytes from 0 that the segments reach
	bytes []byte // the image itself, for the copying fallback
	file  mappedFile
}

// minDataImage is the least data worth an image: below it wazero's copy
// is cheap.
const minDataImage = 1 << 20

// splitData returns the module without the bytes of its data segments (an
// empty data section) and the image they make, when the module's data is
// only active segments of memory 0 at constant offsets, inside its
// initial memory, with no data count section. ok is false otherwise, and
// the module must be used as it is.
func splitData(wasm []byte) (stripped []byte, image []byte, ok bool) {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return nil, nil, false
	}
	var (
		dataSec, dataStart, dataEnd = -1, -1, -1
		minPages                    = -1
	)
	for i := 8; i < len(wasm); {
		id := wasm[i]
		size, n := uleb(wasm[i+1:])
		if n == 0 {
			return nil, nil, false
		}
		start := i + 1 + n
		end := start + int(size)
		if end > len(wasm) || end < start {
			return nil, nil, false
		}
		switch id {
		case 5: // memory: count, then limits of the first
			cnt, k := uleb(wasm[start:end])
			if k == 0 || cnt != 1 || start+k >= end {
				return nil, nil, false
			}
			mn, k2 := uleb(wasm[start+k+1 : end])
			if k2 == 0 {
				return nil, nil, false
			}
			minPages = int(mn)
		case 11:
			dataSec, dataStart, dataEnd = i, start, end
		case 12: // a data count: memory.init or data.drop may name segments
			return nil, nil, false
		}
		i = end
	}
	if dataStart < 0 || minPages <= 0 {
		return nil, nil, false
	}
	image, err := layOut(wasm[dataStart:dataEnd], minPages<<16)
	if err != nil || len(image) < minDataImage {
		return nil, nil, false
	}
	// The module with an empty data section in place of the old one.
	stripped = make([]byte, 0, len(wasm)-(dataEnd-dataSec)+3)
	stripped = append(stripped, wasm[:dataSec]...)
	stripped = append(stripped, 11, 1, 0) // id, size 1, zero segments
	stripped = append(stripped, wasm[dataEnd:]...)
	return stripped, image, true
}

var errDataShape = errors.New("data segments of another shape")

// layOut applies a data section's segments, in order, to a zeroed memory
// and returns it up to the last byte they write.
func layOut(sec []byte, memSize int) ([]byte, error) {
	count, n := uleb(sec)
	if n == 0 {
		return nil, errDataShape
	}
	i := n
	type seg struct{ off, start, end int }
	segs := make([]seg, 0, count)
	top := 0
	for range count {
		flag, k := uleb(sec[i:])
		if k == 0 || flag != 0 {
			return nil, errDataShape
		}
		i += k
		if i >= len(sec) || sec[i] != 0x41 { // i32.const
			return nil, errDataShape
		}
		off, k := sleb32(sec[i+1:])
		if k == 0 {
			return nil, errDataShape
		}
		i += 1 + k
		if i >= len(sec) || sec[i] != 0x0b { // end
			return nil, errDataShape
		}
		i++
		ln, k := uleb(sec[i:])
		if k == 0 {
			return nil, errDataShape
		}
		i += k
		o := int(uint32(off))
		if i+int(ln) > len(sec) || o+int(ln) > memSize {
			return nil, errDataShape
		}
		segs = append(segs, seg{o, i, i + int(ln)})
		top = max(top, o+int(ln))
		i += int(ln)
	}
	if i != len(sec) {
		return nil, errDataShape
	}
	image := make([]byte, top)
	for _, s := range segs {
		copy(image[s.off:], sec[s.start:s.end])
	}
	return image, nil
}

// uleb reads an unsigned LEB128 (up to 32 bits); n is 0 when malformed.
func uleb(b []byte) (v uint32, n int) {
	var shift uint
	for i := 0; i < len(b) && i < 5; i++ {
		v |= uint32(b[i]&0x7f) << shift
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
		shift += 7
	}
	return 0, 0
}

// sleb32 reads a signed LEB128 of 32 bits; n is 0 when malformed.
func sleb32(b []byte) (v int32, n int) {
	var r int64
	var shift uint
	for i := 0; i < len(b) && i < 5; i++ {
		r |= int64(b[i]&0x7f) << shift
		shift += 7
		if b[i]&0x80 == 0 {
			if shift < 64 && b[i]&0x40 != 0 {
				r |= -1 << shift
			}
			return int32(r), i + 1
		}
	}
	return 0, 0
}
