package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// What Load compiles is made once per image and kept in the compilation
// cache's folder "prepared", so that a new process only reads it:
//
//   - ref-KEY: the hex sha256 of an image file's content, KEY being a hash
//     of the file's path, size and modification time (and the kind of
//     rewrite). A process finds an image's content hash from one stat,
//     instead of reading and hashing the whole file (busybox: 36 MiB).
//     A file rewritten in place keeps neither its size nor its mtime,
//     and so gets a new ref.
//   - SUM-KIND-VERSION-CANCEL.stripped.wasm and .data: the rewritten
//     module (rewrite) without its data segments, and the memory image
//     they make (splitData), page-padded: mapped, never copied, into
//     every instance, and shared through the page cache.
//   - SUM-KIND-VERSION-CANCEL.wasm: the rewritten module whole, where its
//     data cannot be split (or memory cannot be mapped).
//   - Python's site files (pythonSite): SUM-site-HASH.pyc and
//     SUM-stdlib.zip.
//
// Every file is written whole under a temporary name and then renamed, so
// no process reads half of one; one that cannot be read is made anew.

// loaded is the module Load compiles, its data image when split off, and
// the content hash of its image file ("" without a cache).
type loaded struct {
	module []byte
	data   *dataImage
	sum    string
}

// loadModule returns what compileImage compiles for the image file path.
func (e *Engine) loadModule(path string, python bool) (loaded, error) {
	if e.prepared == "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return loaded{}, err
		}
		if b, err = e.rewrite(b, python); err != nil {
			return loaded{}, err
		}
		return split(b, ""), nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return loaded{}, err
	}
	ref := filepath.Join(e.prepared, "ref-"+e.statKey(path, fi, python))
	if b, err := os.ReadFile(ref); err == nil && len(b) == 2*sha256.Size {
		if l, ok := e.cachedModule(string(b), python); ok {
			return l, nil
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return loaded{}, err
	}
	sum := fmt.Sprintf("%x", sha256.Sum256(b))
	writeCacheFile(ref, []byte(sum))
	if l, ok := e.cachedModule(sum, python); ok {
		return l, nil
	}
	if b, err = e.rewrite(b, python); err != nil {
		return loaded{}, err
	}
	return e.keep(e.preparedBase(sum, python), b, sum, true), nil
}

// keep returns the prepared module b of the image whose content hash is
// sum, split from its data where that can be done, after writing it to
// the cache under base: split, or whole when writeWhole.
func (e *Engine) keep(base string, b []byte, sum string, writeWhole bool) loaded {
	if canMapData {
		if stripped, image, ok := splitData(b); ok {
			page := os.Getpagesize()
			pad := make([]byte, (len(image)+page-1)/page*page)
			copy(pad, image)
			if writeCacheFile(base+".data", pad) && writeCacheFile(base+".stripped.wasm", stripped) {
				if d, err := openDataImage(base + ".data"); err == nil {
					return loaded{module: stripped, data: d, sum: sum}
				}
			}
			if d, err := newDataImage(image); err == nil {
				return loaded{module: stripped, data: d, sum: sum}
			}
			return loaded{module: b, sum: sum}
		}
	}
	if writeWhole {
		writeCacheFile(base+".wasm", b)
	}
	return loaded{module: b, sum: sum}
}

// cachedModule returns the prepared module of the image whose content hash
// is sum, when the cache has it.
func (e *Engine) cachedModule(sum string, python bool) (loaded, bool) {
	base := e.preparedBase(sum, python)
	if canMapData {
		if d, err := openDataImage(base + ".data"); err == nil {
			if b, err := readModule(base + ".stripped.wasm"); err == nil {
				return loaded{module: b, data: d, sum: sum}, true
			}
		}
	}
	if b, err := readModule(base + ".wasm"); err == nil {
		return e.keep(base, b, sum, false), true // written by prepare, or where data stays in
	}
	return loaded{}, false
}

// split returns b with its data segments taken out into a data image,
// where memory can be mapped and b's data allows it; else b as it is.
func split(b []byte, sum string) loaded {
	if canMapData {
		if stripped, image, ok := splitData(b); ok {
			if d, err := newDataImage(image); err == nil {
				return loaded{module: stripped, data: d, sum: sum}
			}
		}
	}
	return loaded{module: b, sum: sum}
}

// preparedBase is the cache's name, without its suffix, of the module
// prepared from an image file whose content hash is sum.
func (e *Engine) preparedBase(sum string, python bool) string {
	kind := "command"
	if python {
		kind = "python"
	}
	return filepath.Join(e.prepared, fmt.Sprintf("%s-%s-%s-%d", sum, kind, preparedVersion, e.opts.cancel))
}

// statKey is the ref name of the image file path as fi describes it.
func (e *Engine) statKey(path string, fi os.FileInfo, python bool) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	h := sha256.New()
	for _, s := range []string{path, strconv.FormatInt(fi.Size(), 10), strconv.FormatInt(fi.ModTime().UnixNano(), 10),
		strconv.FormatBool(python), preparedVersion, strconv.Itoa(int(e.opts.cancel))} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

var errNotModule = errors.New("engine: cached file is not a wasm module")

// readModule reads a cached module, refusing anything but a wasm module.
func readModule(file string) ([]byte, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errNotModule
	}
	return b, nil
}

// writeCacheFile writes b to file whole, under another name first and
// then renamed, so that no process reads half of it. Best effort: false
// when it could not.
func writeCacheFile(file string, b []byte) bool {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false
	}
	f, err := os.CreateTemp(dir, "tmp-*")
	if err != nil {
		return false
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), file)
	}
	if werr != nil {
		_ = os.Remove(f.Name())
		return false
	}
	return true
}
