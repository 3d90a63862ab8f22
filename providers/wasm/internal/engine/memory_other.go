//go:build !linux

package engine

// mapMemory is only done on Linux; elsewhere the memory is a Go slice.
func mapMemory(n uint64) ([]byte, bool) { return nil, false }

func unmapMemory(b []byte) {}
