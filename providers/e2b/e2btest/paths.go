package e2btest

import (
	"cmp"
	"context"
	"io"
	"path"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// HomeDir is the home of the sandbox's default user, as in E2B's base
// template: relative paths resolve there and commands start there.
const HomeDir = "/home/user"

// treeRoots are the sandbox's own folders; everything else of the E2B
// filesystem ("/usr", "/etc", "/dev", ...) is the backend's system.
var treeRoots = []string{"/home", "/tmp"}

// tree maps the E2B sandbox's paths to the backend sandbox's. The sandbox's
// /home and /tmp are the folders home and tmp in base, the backend sandbox's
// work folder (which holds nothing else), and "/" is base itself:
//
//	/home/user/a.txt  <->  <base>/home/user/a.txt
//	/tmp/x            <->  <base>/tmp/x
//
// envd's side of the server (the file API, the Filesystem service, a
// process's cwd) speaks only sandbox paths; the backend is only ever given
// backend ones. Commands see the same tree through the view (see
// commandView). A backend whose work folder is "/" has base "": the paths
// are the same and no view is needed.
type tree struct {
	base string
	view commandView
	// unshare is the command that gives viewMount its mount namespace.
	unshare string
}

// commandView is how a sandbox's commands, which run on the backend, see
// the sandbox's tree.
type commandView int

const (
	// viewSame: the backend's paths are the sandbox's (base "").
	viewSame commandView = iota
	// viewMount: each command runs in a mount namespace of its own where
	// <base>/home is bind-mounted on /home and <base>/tmp on /tmp, so it
	// sees exactly the paths envd shows. Chosen where the backend's
	// commands can do that (a local backend on Linux with unshare(1) and
	// mount(1), as root or with user namespaces).
	viewMount
	// viewRewrite, elsewhere: the command line and the environment have
	// the sandbox's folders rewritten into the backend's (rewriteCommand)
	// and the output has base rewritten back (outputRewriter). A path a
	// program builds itself, reads from a file or writes into one (the
	// output of pwd saved to a file, say) stays the backend's.
	viewRewrite
)

// mountScript runs as SHELL -c mountScript SHELL BASE DIR COMMAND USER
// inside the namespaces (mount and pid): it builds the sandbox's own root
// on a tmpfs — the host's system folders (/usr, /bin, /lib*, /sbin, /etc,
// /opt) bound read-only, the sandbox's /home and /tmp, a fresh /proc (its
// /sys read-only), a few device nodes, /etc/passwd and /etc/group naming
// user (uid 1000) — makes it "/" with pivot_root, so nothing else of the
// host is reachable by path, then runs COMMAND in DIR in a new SHELL as
// USER: in a user namespace of its own that maps it to uid 1000 ("user") or
// 0 ("root").
const mountScript = `B=$1; D=$2; C=$3; U=$4
for N in /mnt /media /srv ''; do [ -d "$N" ] && break; done
[ -n "$N" ] && mount -t tmpfs -o mode=755 e2btest "$N" && cd "$N" || exit 1
links=; dirs=
for d in bin sbin lib lib32 lib64 libx32 usr etc opt; do
  if [ -L "/$d" ]; then links="$links /$d"; elif [ -d "/$d" ]; then dirs="$dirs $d"; fi
done
mkdir -p home tmp proc dev/shm root run var/tmp .old $dirs && { [ -z "$links" ] || cp -P $links .; } || exit 1
for d in $dirs; do mount --rbind -o ro "/$d" "$d" || exit 1; done
mount --bind "$B/home" home && mount --bind "$B/tmp" tmp && mount -t proc proc proc &&
mount --bind -o ro proc/sys proc/sys && mount -t tmpfs -o mode=1777 shm dev/shm || exit 1
for f in null zero full random urandom tty; do : > "dev/$f" && mount --bind "/dev/$f" "dev/$f"; done
ln -s /proc/self/fd dev/fd
sh=/bin/sh; [ -x /bin/bash ] && sh=/bin/bash
while IFS= read -r l; do case "$l" in user:*|[!:]*:[!:]*:1000:*) ;; *) printf '%s\n' "$l";; esac; done < /etc/passwd > run/passwd
while IFS= read -r l; do case "$l" in user:*|[!:]*:[!:]*:1000:*) ;; *) printf '%s\n' "$l";; esac; done < /etc/group > run/group
printf 'user:x:1000:1000:user:/home/user:%s\n' "$sh" >> run/passwd; printf 'user:x:1000:\n' >> run/group
mount --bind run/passwd etc/passwd && mount --bind run/group etc/group &&
pivot_root . .old && umount -l /.old && rmdir /.old && cd -- "$D" || exit 1
if [ "$U" = root ]; then exec unshare --user --map-root-user -- "$0" -c "$C"; fi
exec unshare --user --map-user=1000 --map-group=1000 -- "$0" -c "$C"`

// chooseView picks how the commands of a sandbox on back see tr: viewMount
// when a probe command in a mount namespace finds the sandbox's home at
// /home/user, else viewRewrite.
func chooseView(ctx context.Context, back sandbox.Sandbox, tr tree) tree {
	if tr.base == "" {
		tr.view = viewSame
		return tr
	}
	tr.view = viewRewrite
	for _, unshare := range []string{"unshare -m -p -f --", "unshare -rm -p -f --"} {
		tr.unshare = unshare
		probe := tr.mountCommand("test -d "+HomeDir+" && test -d /tmp && test \"$(id -u)\" = 1000", HomeDir, defaultUser)
		r, err := back.RunCommand(ctx, probe+" 2>/dev/null", sandbox.RunCommandOptions{Timeout: 10 * time.Second})
		if err == nil && r.ExitCode == 0 {
			tr.view = viewMount
			return tr
		}
	}
	tr.unshare = ""
	return tr
}

// mountCommand is the backend's command line that runs line in dir (both
// in the sandbox's paths) as user under viewMount.
func (t tree) mountCommand(line, dir, user string) string {
	return "exec " + t.unshare + ` "${BASH:-/bin/sh}" -c ` + quoteAll([]string{mountScript}) + ` "${BASH:-/bin/sh}" ` + quoteAll([]string{t.base, dir, line, user})
}

// backendCommand is what the backend runs for a process of user whose
// command line is line, in the sandbox's folder dir, with env (in the
// sandbox's paths): the backend's command line, cwd and environment. Only
// viewMount runs it as user; the other views run every command as the
// backend's own user.
func (t tree) backendCommand(line, dir, user string, env map[string]string) (string, string, map[string]string) {
	switch t.view {
	case viewMount:
		return t.mountCommand(line, dir, user), "", env
	case viewRewrite:
		bdir, _ := t.backend(dir)
		if _, ok := env["TMPDIR"]; !ok {
			env["TMPDIR"] = "/tmp" // mktemp and tempfile use the sandbox's /tmp
		}
		return t.rewriteCommand(line), bdir, t.rewriteEnv(env)
	}
	return line, dir, env
}

// output wraps a process's output writer: under viewRewrite the backend's
// paths are turned back into the sandbox's.
func (t tree) output(w io.Writer) io.WriteCloser {
	if t.view != viewRewrite {
		return nopCloser{w}
	}
	return &outputRewriter{w: w, base: t.base}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// backend returns the backend path of an absolute, clean sandbox path, and
// false for a path outside the sandbox's own folders and "/".
func (t tree) backend(p string) (string, bool) {
	if p == "/" {
		return cmp.Or(t.base, "/"), true
	}
	for _, r := range treeRoots {
		if p == r || strings.HasPrefix(p, r+"/") {
			return t.base + p, true
		}
	}
	return "", false
}

// isPathByte reports whether b can be part of a path word: a root such as
// /tmp is only rewritten where it starts a path, not inside /var/tmp or
// http://host/tmp.
func isPathByte(b byte) bool {
	return b == '/' || b == '.' || b == '_' || b == '-' || b == '~' ||
		'0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// rewriteCommand rewrites every path that starts with one of the sandbox's
// own folders (/home, /tmp) in a command line or an environment value into
// the backend's: "cat /tmp/x" becomes "cat <base>/tmp/x". Other absolute
// paths (/dev/null, /usr/bin/python3) are left alone.
func (t tree) rewriteCommand(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '/' || (i > 0 && isPathByte(s[i-1])) {
			continue
		}
		for _, r := range treeRoots {
			end := i + len(r)
			if strings.HasPrefix(s[i:], r) && (end == len(s) || s[end] == '/' || !isPathByte(s[end])) {
				b.WriteString(s[last:i])
				b.WriteString(t.base)
				last = i
				i = end - 1
				break
			}
		}
	}
	if b.Len() == 0 {
		return s // nothing rewritten
	}
	b.WriteString(s[last:])
	return b.String()
}

// rewriteEnv is rewriteCommand on each value.
func (t tree) rewriteEnv(env map[string]string) map[string]string {
	out := make(map[string]string, len(env))
	for k, v := range env {
		out[k] = t.rewriteCommand(v)
	}
	return out
}

// outputRewriter passes a command's output on with the backend's paths
// turned back into the sandbox's: "<base>/home/user" becomes "/home/user",
// and base alone "/". It holds back a chunk's end that may be the start of
// base until the next chunk (or Close) tells.
type outputRewriter struct {
	w    io.Writer
	base string
	held []byte
}

// Write rewrites and passes on what it can; it never fails (the writer
// underneath is the process's event queue).
func (o *outputRewriter) Write(p []byte) (int, error) {
	buf := append(o.held, p...)
	var out []byte
	for {
		i := strings.Index(string(buf), o.base)
		if i < 0 {
			break
		}
		end := i + len(o.base)
		if end == len(buf) {
			// base or base/...: the next byte decides.
			out = append(out, buf[:i]...)
			buf = buf[i:]
			o.held = append([]byte(nil), buf...)
			_, err := o.w.Write(out)
			return len(p), err
		}
		out = append(out, buf[:i]...)
		if buf[end] != '/' {
			out = append(out, '/')
		}
		buf = buf[end:]
	}
	keep := partialSuffix(buf, o.base)
	out = append(out, buf[:len(buf)-keep]...)
	o.held = append([]byte(nil), buf[len(buf)-keep:]...)
	if len(out) == 0 {
		return len(p), nil
	}
	_, err := o.w.Write(out)
	return len(p), err
}

// Close passes on what is held back.
func (o *outputRewriter) Close() error {
	held := o.held
	o.held = nil
	if string(held) == o.base {
		held = []byte("/")
	}
	if len(held) == 0 {
		return nil
	}
	_, err := o.w.Write(held)
	return err
}

// partialSuffix is the length of the longest end of buf that is a proper
// start of s.
func partialSuffix(buf []byte, s string) int {
	for n := min(len(buf), len(s)-1); n > 0; n-- {
		if strings.HasPrefix(s, string(buf[len(buf)-n:])) {
			return n
		}
	}
	return 0
}

// resolveIn is envd's path resolution: relative to home, ~ expanded, clean.
func resolveIn(home, p string) string {
	switch {
	case p == "" || p == "~":
		return home
	case strings.HasPrefix(p, "~/"):
		p = path.Join(home, p[2:])
	case !path.IsAbs(p):
		p = path.Join(home, p)
	}
	return path.Clean(p)
}

// treeFS is the backend's FileSystem seen through a tree: it takes and
// returns sandbox paths. A path outside the sandbox's own folders is
// sandbox.ErrOutsideRoot, and so is changing "/" itself.
type treeFS struct {
	fs   sandbox.FileSystem
	tree tree
}

var _ sandbox.FileSystem = treeFS{}

func (f treeFS) path(op, p string, change bool) (string, error) {
	bp, ok := f.tree.backend(p)
	if !ok || (change && p == "/") {
		return "", sandbox.OutsideRoot(op, p)
	}
	return bp, nil
}

func (f treeFS) ReadFile(ctx context.Context, p string) (string, error) {
	b, err := f.ReadFileBytes(ctx, p)
	return string(b), err
}

func (f treeFS) ReadFileBytes(ctx context.Context, p string) ([]byte, error) {
	bp, err := f.path("read", p, false)
	if err != nil {
		return nil, err
	}
	return f.fs.ReadFileBytes(ctx, bp)
}

func (f treeFS) WriteFile(ctx context.Context, p string, data []byte) error {
	bp, err := f.path("write", p, true)
	if err != nil {
		return err
	}
	return f.fs.WriteFile(ctx, bp, data)
}

// ReadDir lists a folder; the entries' paths are the sandbox's.
func (f treeFS) ReadDir(ctx context.Context, p string) ([]sandbox.FileEntry, error) {
	bp, err := f.path("readdir", p, false)
	if err != nil {
		return nil, err
	}
	ents, err := f.fs.ReadDir(ctx, bp)
	for i := range ents {
		ents[i].Path = path.Join(p, ents[i].Name)
	}
	return ents, err
}

func (f treeFS) Mkdir(ctx context.Context, p string) error {
	bp, err := f.path("mkdir", p, true)
	if err != nil {
		return err
	}
	return f.fs.Mkdir(ctx, bp)
}

func (f treeFS) Exists(ctx context.Context, p string) (bool, error) {
	bp, ok := f.tree.backend(p)
	if !ok {
		return false, nil
	}
	return f.fs.Exists(ctx, bp)
}

func (f treeFS) Remove(ctx context.Context, p string) error {
	bp, err := f.path("remove", p, true)
	if err != nil {
		return err
	}
	return f.fs.Remove(ctx, bp)
}
