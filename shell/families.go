package shell

// The command families that live in packages of their own, linked into
// every program that runs the shell (the busybox image, the memory
// adapter) here, in one place: each registers its commands in its init.
import (
	_ "github.com/agentenkit/agentenkit/shell/net" // curl, wget
	_ "github.com/agentenkit/agentenkit/shell/pip" // pip, pip3
)
