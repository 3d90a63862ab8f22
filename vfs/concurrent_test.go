package vfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"

	"github.com/spf13/afero"
	"github.com/stretchr/testify/require"
)

func TestConcurrentDistinctFiles(t *testing.T) {
	const workers, perWorker = 16, 40
	fsys := New(Options{})
	sfs := SandboxFS(fsys, "/work")
	require.NoError(t, fsys.MkdirAll("/work", 0o755))
	var wg sync.WaitGroup
	errs := make(chan error, workers*perWorker)
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				dir := fmt.Sprintf("/work/w%02d/sub%d", w, i%4)
				name := fmt.Sprintf("%s/f%03d", dir, i)
				data := []byte(name)
				var err error
				switch i % 3 {
				case 0:
					err = sfs.WriteFile(context.Background(), name, data)
				case 1:
					if err = fsys.MkdirAll(dir, 0o755); err == nil {
						err = afero.WriteFile(fsys, name, data, 0o644)
					}
				case 2:
					if err = fsys.MkdirAll(dir, 0o755); err == nil {
						var h afero.File
						if h, err = fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err == nil {
							for _, b := range data {
								if _, err = h.Write([]byte{b}); err != nil {
									break
								}
							}
							err = errors.Join(err, h.Close())
						}
					}
				}
				if err == nil {
					var b []byte
					if b, err = afero.ReadFile(fsys, name); err == nil && string(b) != name {
						err = fmt.Errorf("%s: read back %q", name, b)
					}
				}
				if err == nil {
					_, err = sfs.ReadDir(context.Background(), "/work")
				}
				if err == nil && i%5 == 0 {
					err = fsys.Rename(name, name+".moved")
				}
				if err != nil {
					errs <- err
				}
				fsys.Usage()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	requireUsage(t, fsys)
	_, files := fsys.Usage()
	require.Equal(t, 1+workers*(1+4+perWorker), files)
}

func TestConcurrentAppendAndQuota(t *testing.T) {
	const workers, writes = 8, 200
	fsys := New(Options{MaxBytes: workers * writes / 2})
	build(t, fsys, "log=")
	var wg sync.WaitGroup
	var mu sync.Mutex
	written := 0
	for range workers {
		wg.Go(func() {
			h, err := fsys.OpenFile("/log", os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Error(err)
				return
			}
			defer h.Close()
			for range writes {
				if n, err := h.Write([]byte("x")); err == nil {
					mu.Lock()
					written += n
					mu.Unlock()
				} else if n != 0 {
					t.Errorf("a refused write wrote %d bytes", n)
				}
			}
		})
	}
	wg.Wait()
	require.Equal(t, workers*writes/2, written, "exactly the quota got written")
	h, err := fsys.Open("/log")
	require.NoError(t, err)
	n, err := io.Copy(io.Discard, h)
	require.NoError(t, err)
	require.NoError(t, h.Close())
	require.Equal(t, int64(written), n, "appends never overlap")
	requireUsage(t, fsys)
}
