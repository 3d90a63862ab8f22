package memstorage_test

import (
	"testing"

	"github.com/agentenkit/agentenkit/runtime/storage"
	"github.com/agentenkit/agentenkit/runtime/storage/memstorage"
	"github.com/agentenkit/agentenkit/runtime/storage/storagetest"
)

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Storage {
		// One store per subtest: a second open in the subtest gets it again.
		if s, ok := stores[t.Name()]; ok {
			return s
		}
		s := memstorage.New(memstorage.Options{})
		stores[t.Name()] = s
		return s
	})
}

var stores = map[string]storage.Storage{}
