// Command fetch fetches the WASI images into the images folder (see package
// images): `go run ./images/cmd/fetch [-dir DIR]`. `make images` calls it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/agentenkit/agentenkit/images"
)

func main() {
	dir := flag.String("dir", "", "images folder (default: $"+images.EnvDir+", else images/cache in the source tree, else the user cache)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	p, err := images.Ensure(ctx, images.Options{Dir: *dir, Progress: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(p.Python)
}
