package wasm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentenkit/agentenkit/vfs"
)

// A command that is a single python3 call written in plain words runs
// without the shell: bash -c runs the last simple command of its script
// in place of itself (it execs it, no fork), so `bash -c "python3 ..."`
// is the python3 process with the argv the words make and the
// environment bash was given. The shell's part of such a command, a
// busybox clone parsing it, looking python3 up and asking the host for
// the python image through proc_start (2-3 ms of a sandbox's first
// command), is then left out: the host starts the Python (a prestarted
// one, a spare from the pool, a clone or a new CPython, as the shell's
// request would) on the same files, with the same argv, folder,
// environment, umask and control file, its stdout and stderr the
// command's, and its exit status the command's, as the shell would have
// reported it (runChild).
//
// directArgs decides, and says no to anything the shell could run
// differently: words other than bare characters and single-quoted text
// (no expansion, globbing, redirection, operator, comment, assignment or
// newline outside quotes), a name other than python, python3 or
// python3.X of the image's version, `python3 -m pip` (the shell's own
// pip), a file of that name in a folder of $PATH in the sandbox's files
// (the shell would run it), a relative or empty $PATH entry, and an
// environment the shell reads or rewrites (SHELLOPTS, BASHOPTS, BASH_ENV,
// ENV, POSIXLY_CORRECT, exported functions, the image's version variable)
// or cannot pass as it is (a name with "=" or NUL, text that is not
// UTF-8: the shell's request to the host is JSON).

// shellEnvKeys are the variables the shell (or the busybox image) reads at
// its start or rewrites when it passes them on.
var shellEnvKeys = map[string]bool{"SHELLOPTS": true, "BASHOPTS": true, "BASH_ENV": true, "ENV": true, "POSIXLY_CORRECT": true, pythonVersionEnv: true}

// isPythonName reports whether the busybox image's fallback runs name in
// the python image of CPython version py ("3.11.2"): python, python3 and
// python3.X (images/busybox: hostNames).
func isPythonName(name, py string) bool {
	major, rest, _ := strings.Cut(py, ".")
	minor, _, _ := strings.Cut(rest, ".")
	return name == "python" || name == "python3" || py != "" && name == "python"+major+"."+minor
}

// directArgs returns the argv of command when the shell would run it as
// exactly one python image child (of CPython version py; "": unknown,
// none) with that argv and env unchanged (see above), looking up the name
// in the $PATH of env in files.
func directArgs(command string, env map[string]string, files *vfs.FS, py string) ([]string, bool) {
	args, ok := plainWords(command)
	if !ok || py == "" || !isPythonName(args[0], py) || len(args) >= 3 && args[1] == "-m" && args[2] == "pip" {
		return nil, false
	}
	for k, v := range env {
		if k == "" || shellEnvKeys[k] || strings.HasPrefix(k, "BASH_FUNC_") || strings.ContainsAny(k, "=\x00") ||
			strings.ContainsRune(v, 0) || !utf8.ValidString(k) || !utf8.ValidString(v) {
			return nil, false
		}
	}
	search, ok := env["PATH"]
	if !ok {
		return nil, false
	}
	for _, dir := range strings.Split(search, ":") {
		if !path.IsAbs(dir) {
			return nil, false
		}
		if _, _, err := files.LstatIfPossible(path.Join(dir, args[0])); !errors.Is(err, fs.ErrNotExist) {
			return nil, false
		}
	}
	return args, true
}

// plainWords splits s into its words when each is made only of bare
// characters (plainByte) and single-quoted text, separated by blanks:
// words the shell takes as they are written, with nothing to expand.
func plainWords(s string) ([]string, bool) {
	if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
		return nil, false
	}
	var words []string
	for i := 0; ; {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == len(s) {
			break
		}
		var w strings.Builder
		for i < len(s) && s[i] != ' ' && s[i] != '\t' {
			switch c := s[i]; {
			case c == '\'':
				end := strings.IndexByte(s[i+1:], '\'')
				if end < 0 {
					return nil, false
				}
				w.WriteString(s[i+1 : i+1+end])
				i += end + 2
			case plainByte(c):
				w.WriteByte(c)
				i++
			default:
				return nil, false
			}
		}
		words = append(words, w.String())
	}
	return words, len(words) > 0
}

// plainByte reports whether c means itself anywhere in an unquoted word
// of bash (no quoting, expansion, globbing, operator, comment or tilde).
func plainByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("_./:=+,@%-", c) >= 0
}

// runDirect runs spec as the command itself (see above): a child of t at
// the top, its stdin empty (as the shell's is), its output the command's.
// Its processes are ended with it.
func (t *procTable) runDirect(ctx context.Context, spec procSpec, stdout, stderr io.Writer) (int, error) {
	if t.host.live.Add(1) > t.host.maxProcs {
		t.host.live.Add(-1)
		// as the shell reports a child the host would not start
		fmt.Fprintf(stderr, "%s: %s: fork: retry: Resource temporarily unavailable (too many processes in this command)\n", spec.Args[0], spec.Args[0])
		return 126, nil
	}
	defer t.host.live.Add(-1)
	child := newProcTable(t.host, t.depth+1)
	defer child.closeAll()
	return t.runChild(ctx, child, spec, nil, stdout, stderr)
}

// envList is env as "K=V" lines, sorted, as the shell passes it on.
func envList(env map[string]string) []string {
	list := make([]string, 0, len(env))
	for _, k := range slices.Sorted(maps.Keys(env)) {
		list = append(list, k+"="+env[k])
	}
	return list
}
