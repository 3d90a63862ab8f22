//go:build !unix

package shell

import "io/fs"

// fsSys is the Sys of a FileInfo the shell's tests get; off Unix the
// interpreter looks at none.
func fsSys(fi fs.FileInfo) any { return fi.Sys() }
