//go:build !linux

package engine

import "errors"

// mappedFile is unused where memory is not mapped.
type mappedFile struct{}

// canMapData reports whether images can be mapped here: modules keep their
// data segments.
const canMapData = false

func newDataImage(image []byte) (*dataImage, error) {
	return &dataImage{size: len(image), bytes: image}, nil
}

func (d *dataImage) mapInto(mem []byte) bool { return false }

func openDataImage(string) (*dataImage, error) { return nil, errors.ErrUnsupported }
