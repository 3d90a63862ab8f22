package images

// BuildFlags are the go build flags (after "build", before -o) of the image
// built from ./images/NAME for GOOS=wasip1 GOARCH=wasm: `make images` and
// the CLI build with the same. busybox is built as a reactor
// (-buildmode=c-shared): the wasm adapter runs its Go init once per
// process and starts every warm shell from a snapshot of it.
func BuildFlags(name string) []string {
	flags := []string{"-trimpath", "-ldflags=-s -w"}
	if name == "busybox" {
		flags = append(flags, "-buildmode=c-shared")
	}
	return flags
}
