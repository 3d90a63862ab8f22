package shell

// The command families that live in packages of their own (each registers
// its commands with shell/command in init): importing package shell links
// them all in, for the memory adapter and the busybox image alike.
import (
	_ "github.com/agentenkit/agentenkit/shell/fileutil"
	_ "github.com/agentenkit/agentenkit/shell/patch"
	_ "github.com/agentenkit/agentenkit/shell/shuf"
	_ "github.com/agentenkit/agentenkit/shell/sysutil"
)
