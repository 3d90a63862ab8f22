package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
)

var (
	// ErrGone: the sandbox was destroyed, expired or never existed.
	ErrGone = errors.New("sandbox is gone")
	// ErrUnsupported: the adapter cannot offer this feature. The wrapping
	// error says which adapter does.
	ErrUnsupported = errors.New("not supported by this sandbox adapter")
	// ErrOutsideRoot: a path would leave the sandbox's root. It also matches
	// fs.ErrPermission.
	ErrOutsideRoot = outsideRootError{}
)

type outsideRootError struct{}

// Error says what is wrong.
func (outsideRootError) Error() string { return "path is outside the sandbox" }

// Is makes ErrOutsideRoot match fs.ErrPermission too.
func (outsideRootError) Is(target error) bool { return target == fs.ErrPermission }

// Unsupported returns an error that matches ErrUnsupported, naming the
// adapter, the feature and where to find it instead, for example
// Unsupported("wasm", "GetURL", "the docker and e2b adapters offer URLs").
func Unsupported(adapter, feature, hint string) error {
	if hint == "" {
		return fmt.Errorf("%s: %s: %w", adapter, feature, ErrUnsupported)
	}
	return fmt.Errorf("%s: %s: %w; %s", adapter, feature, ErrUnsupported, hint)
}

// Gone returns an error that matches ErrGone and names the sandbox.
func Gone(adapter, id string) error {
	return fmt.Errorf("%s sandbox %q: %w", adapter, id, ErrGone)
}

// OutsideRoot returns a *fs.PathError for op on path whose Err is
// ErrOutsideRoot.
func OutsideRoot(op, path string) error {
	return &fs.PathError{Op: op, Path: path, Err: ErrOutsideRoot}
}
