package archive

import (
	"os"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/shell/posixfs"
)

// createMember opens abs to write a member's bytes into, as tar and unzip
// do: a folder or a link there is removed first, so that the member
// replaces it instead of writing through it; a new file is 0600 until the
// member's mode is set after.
func createMember(fsys afero.Fs, abs string) (afero.File, error) {
	if fi, err := posixfs.Lstat(fsys, abs); err == nil && (fi.IsDir() || posixfs.IsSymlink(fi)) {
		if err := fsys.Remove(abs); err != nil {
			return nil, err
		}
	}
	return fsys.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
}
