//go:build !unix

package posixfs

import "io/fs"

// Sys is the Sys of a FileInfo the shell's tests get; off Unix the
// interpreter looks at none.
func Sys(fi fs.FileInfo) any { return fi.Sys() }
