package dirs

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cdShell is a shell over a fake tree: the folders /, /tmp, /tmp/cdt,
// /tmp/cdt/a, /tmp/cdt/a/b, the file /tmp/cdt/f and the link
// /tmp/cdt/l -> a/b.
type cdShell struct {
	vars map[string]string
	exp  map[string]bool
	dir  string
	phys bool
	line int
	out  bytes.Buffer
}

var (
	cdDirs  = map[string]bool{"/": true, "/tmp": true, "/tmp/cdt": true, "/tmp/cdt/a": true, "/tmp/cdt/a/b": true}
	cdFiles = map[string]bool{"/tmp/cdt/f": true}
	cdLinks = map[string]string{"/tmp/cdt/l": "/tmp/cdt/a/b"}
)

func (c *cdShell) Errf(format string, a ...any) {
	fmt.Fprintf(&c.out, "bash: line %d: "+format+"\n", append([]any{c.line}, a...)...)
}
func (c *cdShell) Stdout() io.Writer { return &c.out }
func (c *cdShell) Stderr() io.Writer { return &c.out }
func (c *cdShell) Var(name string) (string, bool) {
	v, ok := c.vars[name]
	return v, ok
}
func (c *cdShell) SetVar(name, val string) error { c.vars[name] = val; return nil }
func (c *cdShell) Export(name string)            { c.exp[name] = true }
func (c *cdShell) Dir() string                   { return c.dir }
func (c *cdShell) SetDir(dir string)             { c.dir = dir }
func (c *cdShell) Physical() bool                { return c.phys }
func (c *cdShell) ErrText(err error) string {
	switch err {
	case syscall.ENOTDIR:
		return "Not a directory"
	case fs.ErrNotExist:
		return "No such file or directory"
	}
	return err.Error()
}

// Readlink is a fake link's target.
func (c *cdShell) Readlink(p string) (string, error) {
	if t, ok := cdLinks[p]; ok {
		return t, nil
	}
	return "", fs.ErrInvalid
}

// Realpath resolves the fake links in an absolute path, each .. after
// what comes before it is resolved (as chdir does).
func (c *cdShell) Realpath(p string) (string, error) {
	out := ""
	for _, s := range strings.Split(p, "/")[1:] {
		if s == "" || s == "." {
			continue
		}
		if s == ".." {
			if out != "" && !cdDirs[out] {
				return "", syscall.ENOTDIR
			}
			out = strings.TrimSuffix(path.Dir("/"+strings.TrimPrefix(out, "/")), "/")
			continue
		}
		out += "/" + s
		if t, ok := cdLinks[out]; ok {
			out = t
		}
		if !cdDirs[out] && !cdFiles[out] {
			return "", fs.ErrNotExist
		}
	}
	if out == "" {
		out = "/"
	}
	return out, nil
}

func (c *cdShell) Stat(p string) (fs.FileInfo, error) {
	real, err := c.Realpath(p)
	if err != nil {
		return nil, err
	}
	return fakeInfo{cdDirs[real]}, nil
}

type fakeInfo struct{ dir bool }

func (f fakeInfo) Name() string       { return "x" }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() fs.FileMode  { return map[bool]fs.FileMode{true: fs.ModeDir}[f.dir] }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return f.dir }
func (f fakeInfo) Sys() any           { return nil }

// TestCdSequence runs cd and pwd as a script and compares with bash
// 5.2's output of the same lines over the same tree (env -i
// HOME=/tmp/cdt/a bash -c '...' from /, stdout and stderr merged; line
// 21 is set -o physical; cd /tmp/cdt/l/; pwd; set +o physical). Lines
// 23 on: cd -P resolves a link before the .. after it, and a leading //
// stays in the logical path (three or more slashes are one).
func TestCdSequence(t *testing.T) {
	sh := &cdShell{vars: map[string]string{"HOME": "/tmp/cdt/a", "PWD": "/"}, exp: map[string]bool{}, dir: "/"}
	cd := func(args ...string) int { return Cd(sh, args) }
	pwd := func(args ...string) int {
		out, st := Pwd(sh, args)
		sh.out.WriteString(out)
		return st
	}
	st := func(n int) { fmt.Fprintf(&sh.out, "st=%d\n", n) }
	lines := [][]func(){
		{func() { st(cd("/tmp/cdt")) }},
		{func() { cd("a"); st(pwd()) }},
		{func() { st(cd("../f/..")) }},
		{func() { st(cd("-")); fmt.Fprintln(&sh.out, sh.vars["PWD"], sh.vars["OLDPWD"], sh.exp["OLDPWD"]) }},
		{func() { cd("l"); pwd(); pwd("-P"); cd(".."); pwd() }},
		{func() { cd("-P", "l"); pwd(); pwd("-L") }},
		{func() { cd("/tmp/cdt"); sh.vars["CDPATH"] = ":/tmp/cdt/a"; st(cd("b")) }},
		{func() { cd("/tmp/cdt"); st(cd("a")) }},
		{func() { sh.vars["CDPATH"] = "/tmp/cdt/a/"; cd("/tmp"); st(cd("./b")) }},
		{func() { st(cd("b")) }},
		{func() { delete(sh.vars, "CDPATH") }},
		{func() { st(cd("nosuch")) }},
		{func() { st(cd("-x")) }},
		{func() { st(cd("a", "b")) }},
		{func() { cd(); pwd() }},
		{func() { cd(""); pwd(); st(0) }},
		{func() { st(pwd("-x")) }},
		{func() { pwd("-LP", "extra") }},
		{func() { cd("/tmp/cdt/l/../.."); pwd() }},
		{func() { sh.phys = true; cd("/tmp/cdt/l/"); pwd(); sh.phys = false }},
		{func() { delete(sh.vars, "HOME"); st(cd()) }},
		{func() { cd("-P", "/tmp/cdt/l/.."); pwd(); fmt.Fprintln(&sh.out, sh.vars["PWD"]) }},
		{func() { cd("-L", "/tmp/cdt/l/.."); pwd() }},
		{func() {
			cd("//tmp/cdt")
			pwd()
			cd("a")
			pwd()
			pwd("-P")
			fmt.Fprintln(&sh.out, sh.vars["PWD"])
		}},
		{func() {
			cd("///tmp")
			pwd()
			cd("//")
			pwd()
			cd("//tmp/..")
			pwd()
			cd("//tmp/cdt/../../")
			pwd()
		}},
		{func() { cd("-P", "//tmp/cdt/l/.."); pwd() }},
		{func() {
			cd("-P", "//tmp/cdt")
			pwd()
			cd("-P", "..")
			pwd()
			cd("cdt/l")
			pwd()
			pwd("-P")
		}},
		{func() { delete(sh.vars, "OLDPWD"); st(cd("-")) }},
		{func() { st(cd("-P", "/tmp/cdt/l/../../f/..")) }},
	}
	for i, l := range lines {
		sh.line = i + 2
		for _, f := range l {
			f()
		}
	}
	want := `st=0
/tmp/cdt/a
st=0
bash: line 4: cd: ../f/..: Not a directory
st=1
/tmp/cdt
st=0
/tmp/cdt /tmp/cdt/a true
/tmp/cdt/l
/tmp/cdt/a/b
/tmp/cdt
/tmp/cdt/a/b
/tmp/cdt/a/b
/tmp/cdt/a/b
st=0
st=0
bash: line 10: cd: ./b: No such file or directory
st=1
/tmp/cdt/a/b
st=0
bash: line 13: cd: nosuch: No such file or directory
st=1
bash: line 14: cd: -x: invalid option
cd: usage: cd [-L|[-P [-e]] [-@]] [dir]
st=2
bash: line 15: cd: too many arguments
st=1
/tmp/cdt/a
/tmp/cdt/a
st=0
bash: line 18: pwd: -x: invalid option
pwd: usage: pwd [-LP]
st=2
/tmp/cdt/a
/tmp
/tmp/cdt/a/b
bash: line 22: cd: HOME not set
st=1
/tmp/cdt/a
/tmp/cdt/a
/tmp/cdt
//tmp/cdt
//tmp/cdt/a
//tmp/cdt/a
//tmp/cdt/a
/tmp
//
//
//
/tmp/cdt/a
//tmp/cdt
//tmp
//tmp/cdt/l
/tmp/cdt/a/b
bash: line 29: cd: OLDPWD not set
st=1
bash: line 30: cd: /tmp/cdt/l/../../f/..: Not a directory
st=1
`
	if got := sh.out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestClean checks cleaning by text with realpath -m's results.
func TestClean(t *testing.T) {
	for _, c := range [][2]string{
		{"", "/"}, {"/", "/"}, {"/a/./b/", "/a/b"}, {"/a/../..", "/"}, {"/a/b/../c", "/a/c"}, {"//x//y", "/x/y"}, {"/..", "/"},
	} {
		if got := Clean(c[0]); got != c[1] {
			t.Errorf("Clean(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}
