package engine

import (
	"fmt"
	"os"
	"runtime"
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

// dataImageTemp makes the unlinked file of a data image (a variable for
// the tests).
var dataImageTemp = func() (*os.File, error) { return os.CreateTemp("", "agentenkit-wasm-data-*") }

// newDataImage keeps image in a file to map. Every page of the file is
// written, the padding after the image too: a page the file lacks (a full
// temporary folder, a short write) would be a SIGBUS in the guest's memory
// instead of an error here. Any failed write is an error, and the caller
// then copies the data as wazero does.
func newDataImage(image []byte) (*dataImage, error) {
	f, err := dataImageTemp()
	if err != nil {
		return nil, err
	}
	_ = os.Remove(f.Name()) // the open file lives on; nothing is left behind
	page := os.Getpagesize()
	size := (len(image) + page - 1) / page * page
	_, err = f.Write(image)
	if err == nil && size > len(image) {
		_, err = f.Write(make([]byte, size-len(image)))
	}
	if err == nil {
		var fi os.FileInfo
		if fi, err = f.Stat(); err == nil && fi.Size() != int64(size) {
			err = fmt.Errorf("engine: data image is %d bytes in %s, want %d", fi.Size(), f.Name(), size)
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("engine: data image: %w", err)
	}
	d := &dataImage{size: len(image), bytes: image, file: mappedFile{f: f, size: size}}
	// The bytes kept for the copying fallback are the file's pages, mapped
	// read-only: the page cache's, which every instance mapping the image
	// shares, instead of a copy on the Go heap (a template's 10 MiB each,
	// held as long as the image). Where that mapping fails, image stays.
	if b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED); err == nil {
		d.bytes = b[:len(image):len(image)]
		runtime.AddCleanup(d, func(b []byte) { _ = syscall.Munmap(b) }, b)
	}
	return d, nil
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

// openDataImage maps the page-padded data image kept in file (the cache's:
// loadModule) read-only: its pages are the page cache's, shared by every
// process, and copied by none. The file's size must be whole pages.
func openDataImage(file string) (*dataImage, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && (fi.Size() <= 0 || fi.Size()%int64(os.Getpagesize()) != 0 || fi.Size() > 1<<32) {
		err = fmt.Errorf("engine: data image %s is %d bytes, not whole pages", file, fi.Size())
	}
	var b []byte
	if err == nil {
		b, err = syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_PRIVATE)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("engine: data image: %w", err)
	}
	d := &dataImage{size: len(b), bytes: b, file: mappedFile{f: f, size: len(b)}}
	runtime.AddCleanup(d, func(b []byte) { _ = syscall.Munmap(b) }, b)
	return d, nil
}
