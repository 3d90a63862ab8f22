// Command fetch fetches the WASI images into the images folder (see package
// images) and builds the busybox and node images from ./images/busybox
// and ./images/node: `go run ./images/cmd/fetch [-dir DIR] [-busybox=false]`.
// [-build-python]: also the project's own python image (images.BuildPython).
// `make images` calls it; `make python-image` adds -build-python.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/images"
)

func main() {
	dir := flag.String("dir", "", "images folder (default: $"+images.EnvDir+", else images/cache in the source tree, else the user cache)")
	busybox := flag.Bool("busybox", true, "also build busybox.wasm and node.wasm from ./images/busybox and ./images/node (needs this module's source and the go command)")
	buildPython := flag.Bool("build-python", false, "also build the project's own python image (images/pybuild/build.sh: Debian's sources and toolchain, a few minutes)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	p, err := images.Ensure(ctx, images.Options{Dir: *dir, Progress: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(p.Python)
	if *busybox {
		for _, name := range builtImages {
			out, err := buildImage(ctx, p.Dir, name)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			fmt.Println(out)
		}
	}
	if *buildPython {
		out, err := images.BuildPython(ctx, images.Options{Dir: p.Dir, Progress: os.Stderr})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(out)
	}
}

// builtImages are the images built from ./images/NAME into NAME.wasm
// (wasm.BusyboxFile, wasm.NodeFile).
var builtImages = []string{"busybox", "node"}

// buildImage builds ./images/NAME for GOOS=wasip1 into dir as NAME.wasm,
// printing each package as it compiles and a line every 5 s, and returns
// the file. go build is incremental: an image that is up to date costs a
// second.
func buildImage(ctx context.Context, dir, name string) (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, name+".wasm")
	tmp := out + ".tmp"
	fmt.Fprintf(os.Stderr, "images: building %s (GOOS=wasip1 GOARCH=wasm go build ./images/%s)\n", out, name)
	start := time.Now()
	args := append(append([]string{"build", "-v"}, images.BuildFlags(name)...), "-o", tmp, "./images/"+name)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("images: %s: go build: %w", name, err)
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				fmt.Fprintf(os.Stderr, "images: %s: still compiling (%s)\n", name, time.Since(start).Round(time.Second))
			}
		}
	}()
	var msgs []string
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, " ") || strings.HasPrefix(line, "#") {
			msgs = append(msgs, line) // a compiler message, not a package name
			fmt.Fprintln(os.Stderr, line)
			continue
		}
		fmt.Fprintf(os.Stderr, "images: %s: compiling %s\n", name, line)
	}
	err = cmd.Wait()
	close(done)
	if err != nil {
		_ = os.Remove(tmp)
		return "", fmt.Errorf("images: %s: go build failed: %w\n%s", name, err, strings.Join(msgs, "\n"))
	}
	if err := os.Rename(tmp, out); err != nil {
		return "", fmt.Errorf("images: %s: %w", name, err)
	}
	fi, err := os.Stat(out)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "images: %s: %s, %.1f MiB, in %s\n", name, out, float64(fi.Size())/(1<<20), time.Since(start).Round(100*time.Millisecond))
	return out, nil
}

// moduleRoot is the folder of this module's go.mod, from `go env GOMOD`.
func moduleRoot() (string, error) {
	b, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("images: go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(b))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("images: run from this module's source tree (no go.mod here)")
	}
	return filepath.Dir(gomod), nil
}
