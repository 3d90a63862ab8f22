package images

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// npmPackage is a pinned npm package whose files make one image.
type npmPackage struct {
	Name, Version string
	// Integrity is the registry's dist.integrity: "sha512-" and the base64
	// of the tarball's SHA-512.
	Integrity string
	// Size is the tarball's size in bytes, for progress while fetching.
	Size int64
	// Folder is the image's subfolder in the images folder.
	Folder string
	// Files maps a path in the tarball to a file name in Folder.
	Files map[string]string
}

func (p npmPackage) spec() string { return p.Name + "@" + p.Version }

// pinFile, in an image's folder, holds the integrity it was made from and
// the size of each file; it is written last, so its presence means whole.
const pinFile = ".pin"

// check reports whether the image is whole in dir: the pin file names this
// integrity and every file has the size recorded there.
func (p npmPackage) check(dir string) error {
	folder := filepath.Join(dir, p.Folder)
	missing := func(why string) error {
		return fmt.Errorf("images: %s %s in %s; run `%s` to fetch it: %w",
			p.spec(), why, folder, FetchCommand, ErrMissing)
	}
	b, err := os.ReadFile(filepath.Join(folder, pinFile))
	if err != nil {
		return missing("is not fetched")
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) == 0 || lines[0] != p.Integrity {
		return missing("was fetched for another pin")
	}
	seen := 0
	for _, line := range lines[1:] {
		sizeText, name, ok := strings.Cut(line, " ")
		size, err := strconv.ParseInt(sizeText, 10, 64)
		if !ok || err != nil {
			return missing("has a damaged " + pinFile)
		}
		fi, err := os.Stat(filepath.Join(folder, name))
		if err != nil || fi.Size() != size {
			return missing("is not whole (" + name + ")")
		}
		seen++
	}
	if seen != len(p.Files) {
		return missing("is not whole")
	}
	return nil
}

// fetch gets the tarball with `npm pack` into a temporary folder inside
// opts.Dir and installs it from there.
func (p npmPackage) fetch(ctx context.Context, opts Options) error {
	tmp, err := os.MkdirTemp(opts.Dir, ".fetch-")
	if err != nil {
		return fmt.Errorf("images: %w", err)
	}
	defer os.RemoveAll(tmp)

	npm := opts.NPM
	if npm == "" {
		npm = "npm"
	}
	if _, err := exec.LookPath(npm); err != nil {
		return fmt.Errorf("images: fetching %s needs the npm client (install Node.js and npm, for example `apt-get install npm`), then run `%s`: %w",
			p.spec(), FetchCommand, err)
	}
	say(opts.Progress, "images: fetching %s (%s) with npm pack", p.spec(), humanBytes(p.Size))
	start := time.Now()
	cmd := exec.CommandContext(ctx, npm, "pack", p.spec(), "--pack-destination", tmp, "--ignore-scripts", "--silent")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = io.Discard
	done := make(chan struct{})
	go watchDownload(tmp, "fetch "+p.spec(), newProgress(opts.Progress, "fetch "+p.spec(), p.Size), opts.Progress, done)
	err = cmd.Run()
	close(done)
	if ctx.Err() != nil {
		return fmt.Errorf("images: fetching %s: %w", p.spec(), ctx.Err())
	}
	if err != nil {
		return fmt.Errorf("images: `npm pack %s` failed: %w\n%s", p.spec(), err, strings.TrimSpace(stderr.String()))
	}
	tgz, err := onlyTarball(tmp)
	if err != nil {
		return fmt.Errorf("images: `npm pack %s`: %w", p.spec(), err)
	}
	say(opts.Progress, "images: fetched %s in %.1fs", p.spec(), time.Since(start).Seconds())
	return p.install(tgz, opts.Dir, opts.Progress)
}

// install checks tgz against the pin, extracts the image's files into a
// temporary folder in dir and renames it into place.
func (p npmPackage) install(tgz, dir string, progress io.Writer) error {
	if err := verifyIntegrity(tgz, p.Integrity, newProgress(progress, "check "+p.spec(), fileSize(tgz))); err != nil {
		return fmt.Errorf("images: %s: %w", p.spec(), err)
	}
	stage, err := os.MkdirTemp(dir, ".stage-")
	if err != nil {
		return fmt.Errorf("images: %w", err)
	}
	defer os.RemoveAll(stage)
	if err := p.extract(tgz, stage, newProgress(progress, "extract "+p.spec(), fileSize(tgz))); err != nil {
		return fmt.Errorf("images: %s: %w", p.spec(), err)
	}
	if err := os.Chmod(stage, 0o755); err != nil {
		return fmt.Errorf("images: %w", err)
	}
	final := filepath.Join(dir, p.Folder)
	if err := os.RemoveAll(final); err != nil { // an old or half one: check failed
		return fmt.Errorf("images: %w", err)
	}
	if err := os.Rename(stage, final); err != nil {
		if p.check(dir) == nil { // another process put it there first
			return nil
		}
		return fmt.Errorf("images: %w", err)
	}
	say(progress, "images: %s is in %s", p.spec(), final)
	return nil
}

// extract writes p.Files from tgz into folder, then the pin file.
func (p npmPackage) extract(tgz, folder string, pr *progress) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(&countingReader{r: bufio.NewReader(f), pr: pr})
	if err != nil {
		return fmt.Errorf("the tarball is not gzip: %w", err)
	}
	tr := tar.NewReader(zr)
	written := map[string]int64{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("read the tarball: %w", err)
		}
		name, ok := p.Files[h.Name]
		if !ok || h.Typeflag != tar.TypeReg {
			continue
		}
		out, err := os.OpenFile(filepath.Join(folder, name), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		n, err := io.Copy(out, tr)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("extract %s: %w", h.Name, err)
		}
		written[name] = n
	}
	pr.done()
	var pin strings.Builder
	pin.WriteString(p.Integrity + "\n")
	for _, src := range slices.Sorted(maps.Keys(p.Files)) {
		name := p.Files[src]
		n, ok := written[name]
		if !ok {
			return fmt.Errorf("the tarball has no %s", src)
		}
		fmt.Fprintf(&pin, "%d %s\n", n, name)
	}
	return os.WriteFile(filepath.Join(folder, pinFile), []byte(pin.String()), 0o644)
}

// verifyIntegrity checks the file's SHA-512 against an npm integrity string
// ("sha512-<base64>").
func verifyIntegrity(path, want string, pr *progress) error {
	if !strings.HasPrefix(want, "sha512-") {
		return fmt.Errorf("pinned integrity %q is not sha512", want)
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha512.New()
	if _, err := io.Copy(h, &countingReader{r: f, pr: pr}); err != nil {
		return err
	}
	pr.done()
	got := "sha512-" + base64.StdEncoding.EncodeToString(h.Sum(nil))
	if got != want {
		return fmt.Errorf("%w: the tarball %s has integrity %s, but the pin is %s. "+
			"The download is damaged or the package was published again under the same version. "+
			"Run `npm cache verify` (or `npm cache clean --force`) and `%s` again; "+
			"if the package really changed, review it before updating the pin in package images",
			ErrIntegrity, filepath.Base(path), got, want, FetchCommand)
	}
	return nil
}

// onlyTarball is the one .tgz npm pack left in dir.
func onlyTarball(dir string) (string, error) {
	m, _ := filepath.Glob(filepath.Join(dir, "*.tgz"))
	if len(m) != 1 {
		return "", errors.New("expected one tarball, found " + strconv.Itoa(len(m)))
	}
	return m[0], nil
}

// watchDownload reports the size of the tarball growing in dir until done
// and, while npm has written nothing yet (it writes the tarball once it has
// it all), that it is still waiting, every few seconds.
func watchDownload(dir string, label string, pr *progress, w io.Writer, done <-chan struct{}) {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	start, lastSaid := time.Now(), time.Now()
	for {
		select {
		case <-done:
			if tgz, err := onlyTarball(dir); err == nil {
				pr.set(fileSize(tgz))
			}
			pr.done()
			return
		case <-t.C:
			if tgz, err := onlyTarball(dir); err == nil {
				pr.set(fileSize(tgz))
			} else if time.Since(lastSaid) >= 3*time.Second {
				lastSaid = time.Now()
				say(w, "images: %s: waiting for npm (%ds)", label, int(time.Since(start).Seconds()))
			}
		}
	}
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}
