//go:build wasip1

// Command node is the wasm adapter's node image: the project's node
// (package shell/node, on goja) built for GOOS=wasip1, on its own. goja is
// half the size the busybox image would have with it, and every process
// that runs a shell command would pay for that size; so the busybox image
// leaves node out and its shell asks the host to start this image, on the
// same files with wired stdio, when node (or nodejs) runs, as it does for
// python3. `make images` builds it into the images folder as node.wasm:
//
//	GOOS=wasip1 GOARCH=wasm go build -o node.wasm ./images/node
//
// It runs as `node ARGS...` over the files WASI gives it, with the
// environment WASI gives it, in the folder $PWD names.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/agentenkit/agentenkit/shell/command"
	_ "github.com/agentenkit/agentenkit/shell/node" // registers node, nodejs
	"github.com/agentenkit/agentenkit/shell/wasifs"
)

func main() {
	os.Exit(run(os.Args, os.Environ()))
}

// run runs argv (argv[0] node or nodejs) with env as the whole environment
// and returns the exit status, printing an error that carries none as the
// shell would ("node: ...", status 1).
func run(argv []string, environ []string) int {
	env := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	dir, err := os.Getwd()
	if err != nil || !path.IsAbs(dir) {
		dir = "/"
	}
	name := "node"
	if len(argv) > 0 && path.Base(argv[0]) == "nodejs" {
		name = "nodejs"
	}
	f, ok := command.Lookup(name)
	if !ok {
		fmt.Fprintf(os.Stderr, "%s: not in this image\n", name)
		return 127
	}
	c := &command.Call{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Dir: path.Clean(dir), FS: wasifs.New()}
	c.SetEnv(env)
	c.Exec = func(_ context.Context, args []string) error {
		return errors.New(args[0] + ": node's image runs no other command")
	}
	args := append([]string{name}, argv[min(1, len(argv)):]...)
	err = f(context.Background(), c, args)
	if err == nil {
		return 0
	}
	var st command.ExitStatus
	if errors.As(err, &st) {
		return int(st)
	}
	fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	return 1
}
