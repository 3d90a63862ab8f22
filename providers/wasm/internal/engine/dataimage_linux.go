package engine

import (
	"os"
	"syscall"
	"unsafe"
)

// mappedFile is a data image in an unlinked temporary file, mapped
// copy-on-write into instances' memories.
type mappedFile struct {
	f    *os.File
	size int // the file's size: the image rounded up to whole pages
}

// canMapData reports whether images can be mapped here.
const canMapData = true

// newDataImage keeps image in a file to map.
func newDataImage(image []byte) (*dataImage, error) {
	f, err := os.CreateTemp("", "agentenkit-wasm-data-*")
	if err != nil {
		return nil, err
	}
	_ = os.Remove(f.Name()) // the open file lives on; nothing is left behind
	page := os.Getpagesize()
	size := (len(image) + page - 1) / page * page
	if _, err = f.Write(image); err == nil {
		err = f.Truncate(int64(size))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &dataImage{size: len(image), bytes: image, file: mappedFile{f: f, size: size}}, nil
}

// mapInto maps the image over the start of mem, a mapping of at least
// file.size bytes made by mapMemory; false when that fails (mem is then
// unchanged).
func (d *dataImage) mapInto(mem []byte) bool {
	if d.file.f == nil || len(mem) < d.file.size {
		return false
	}
	addr, _, errno := syscall.Syscall6(syscall.SYS_MMAP,
		uintptr(unsafe.Pointer(unsafe.SliceData(mem))), uintptr(d.file.size),
		syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_FIXED,
		d.file.f.Fd(), 0)
	return errno == 0 && addr == uintptr(unsafe.Pointer(unsafe.SliceData(mem)))
}
