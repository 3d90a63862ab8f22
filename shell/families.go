package shell

// The command families that live in packages of their own (each imports
// only shell/command and registers in its init). Importing them here is the
// one place they are linked: every program that runs this shell — the
// memory adapter natively, busybox.wasm for the wasm adapter — gets them,
// but node (families_node.go): in WASI it is an image of its own.
import (
	_ "github.com/agentenkit/agentenkit/shell/archive"  // tar, gzip, gunzip, zcat
	_ "github.com/agentenkit/agentenkit/shell/awk"      // awk (gawk, mawk, nawk)
	_ "github.com/agentenkit/agentenkit/shell/bc"       // bc
	_ "github.com/agentenkit/agentenkit/shell/codec"    // od, xxd, base64, md5sum, sha*sum, cksum
	_ "github.com/agentenkit/agentenkit/shell/diff"     // diff, cmp
	_ "github.com/agentenkit/agentenkit/shell/fileutil" // cat, cp, mv, ls, ln, mkdir, rm, stat, date, ...
	_ "github.com/agentenkit/agentenkit/shell/findutil" // find, xargs
	_ "github.com/agentenkit/agentenkit/shell/git"      // git on go-git
	_ "github.com/agentenkit/agentenkit/shell/grep"     // grep, egrep, fgrep
	_ "github.com/agentenkit/agentenkit/shell/jq"       // jq on gojq
	_ "github.com/agentenkit/agentenkit/shell/net"      // curl, wget
	_ "github.com/agentenkit/agentenkit/shell/patch"    // patch
	_ "github.com/agentenkit/agentenkit/shell/pip"      // pip, pip3
	_ "github.com/agentenkit/agentenkit/shell/sed"      // sed
	_ "github.com/agentenkit/agentenkit/shell/shuf"     // shuf
	_ "github.com/agentenkit/agentenkit/shell/sysutil"  // nproc, getconf, flock
	_ "github.com/agentenkit/agentenkit/shell/textutil" // head, sort, wc, tr, cut, ...
)
