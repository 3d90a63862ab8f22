package engine

import "syscall"

// mapMemory reserves n bytes of zeroed, lazily backed memory outside the Go
// heap (see capMemory.Reallocate).
func mapMemory(n uint64) ([]byte, bool) {
	if n == 0 || n > 1<<32 {
		return nil, false
	}
	b, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil, false
	}
	return b, true
}

func unmapMemory(b []byte) { _ = syscall.Munmap(b) }
