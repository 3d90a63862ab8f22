//go:build wasip1

package shell

import (
	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/shell/wasifs"
)

// WASIFS returns the files WASI gives this process with the modes the
// wasm adapter's host keeps (package wasifs).
func WASIFS() afero.Fs { return wasifs.New() }
