// Command peers fetches the peers make bench measures beside the adapters
// (just-bash and Pyodide, see bench.Peers) with npm ci, at the versions
// and integrity bench/peers/package-lock.json pins, into bench.PeersDir
// (the images folder's peers/, or $AGENTENKIT_PEERS). make test never
// needs them.
//
//	go run ./bench/cmd/peers [-dir DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/agentenkit/agentenkit/bench"
)

func main() {
	dir := flag.String("dir", bench.PeersDir(), "the folder to fetch the peers into")
	flag.Parse()
	if err := bench.FetchPeers(context.Background(), *dir, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "peers:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "peers: fetched into %s; make bench measures them\n", *dir)
}
