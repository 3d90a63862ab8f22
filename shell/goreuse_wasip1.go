//go:build wasip1

package shell

// goReuse runs f on a new goroutine. In busybox.wasm a warm shell is
// reused only when a command leaves no goroutine behind (the engine
// compares the guest's goroutine count with the one it had when it was
// ready), so an idle goroutine kept for the next script would make every
// warm shell a cold one.
func goReuse(f func()) { go f() }
