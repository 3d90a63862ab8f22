// Package wasifs is the filesystem of the project's WASI images (busybox,
// node), built for GOOS=wasip1 only: the files WASI gives the process, with
// the modes the wasm adapter's host keeps. It links nothing but
// shell/command and shell/posixfs, so that an image of one command stays
// small.
package wasifs
