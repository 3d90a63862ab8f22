// Package hashorder is the order in which bash 5.2 lists the entries of
// its hash tables (hashlib.c): associative arrays and the remembered
// command paths of hash. A leaf: it imports nothing of the project.
package hashorder

import (
	"maps"
	"slices"
)

// Sum is bash's hash_string: FNV-1 over the bytes.
func Sum(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h *= 16777619
		h ^= uint32(s[i])
	}
	return h
}

// Order lists keys, given in insertion order, as bash lists a table
// made with buckets (a power of two) buckets: the buckets in order, the
// latest inserted first within a bucket; the table grows four times
// once it holds two entries per bucket, as hash_insert grows it.
func Order(keys []string, buckets uint32) []string {
	n := buckets
	table := map[uint32][]string{} // each list oldest first
	count := 0
	for _, k := range keys {
		if count >= int(n)*2 {
			nn := n * 4
			nt := map[uint32][]string{}
			for _, id := range slices.Sorted(maps.Keys(table)) {
				lst := table[id]
				for i := len(lst) - 1; i >= 0; i-- {
					j := Sum(lst[i]) & (nn - 1)
					nt[j] = append(nt[j], lst[i])
				}
			}
			table, n = nt, nn
		}
		j := Sum(k) & (n - 1)
		table[j] = append(table[j], k)
		count++
	}
	out := make([]string, 0, len(keys))
	for _, id := range slices.Sorted(maps.Keys(table)) {
		lst := table[id]
		for i := len(lst) - 1; i >= 0; i-- {
			out = append(out, lst[i])
		}
	}
	return out
}
