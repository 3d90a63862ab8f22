package redir

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/spf13/afero"
	"mvdan.cc/sh/v3/syntax"
)

// rdShell runs commands that print or read through a Table over a
// memory filesystem with the folder /w/dir, as a script's lines would.
type rdShell struct {
	t    Table
	o    *Opener
	fs   afero.Fs
	out  bytes.Buffer
	line int
	vars map[string]int
}

func newShell() *rdShell {
	fsys := afero.NewMemMapFs()
	_ = fsys.MkdirAll("/w/dir", 0o755)
	sh := &rdShell{fs: fsys, vars: map[string]int{}}
	sh.t = Table{0: {R: strings.NewReader(""), Name: "stdin"}, 1: {W: &sh.out, Name: "stdout"}, 2: {W: &sh.out, Name: "stderr"}}
	sh.o = &Opener{FS: fsys, Abs: func(n string) string { return path.Join("/w", n) }, Perm: 0o644}
	return sh
}

type rd struct {
	op     syntax.RedirOperator
	n, arg string
}

// cmd applies the redirections to the table and runs fn with it, then
// puts back what they changed (exec keeps them, and the files open); a
// failed redirection is reported as bash reports it, what the command's
// redirections changed is put back and fn does not run.
func (sh *rdShell) cmd(exec bool, rds []rd, fn func(t Table)) {
	t := sh.t
	u := &Undo{}
	for _, r := range rds {
		err := t.Redirect(sh.o, r.op, r.n, r.arg, func(name string, fd int) error {
			sh.vars[name] = fd
			return nil
		}, u)
		if err != nil {
			fmt.Fprintf(t.Stderr(), "bash: line %d: %v\n", sh.line, err)
			u.Restore(t)
			return
		}
	}
	if fn != nil {
		fn(t)
	}
	if exec {
		u.Keep()
	} else {
		u.Restore(t)
	}
}

func echo(s string) func(t Table) { return func(t Table) { fmt.Fprintln(t.Stdout(), s) } }
func cat(t Table)                 { io.Copy(t.Stdout(), t.Stdin()) }

func (sh *rdShell) catFile(name string) {
	b, err := afero.ReadFile(sh.fs, path.Join("/w", name))
	if err != nil {
		fmt.Fprintln(&sh.out, err)
	}
	sh.out.Write(b)
}

// TestSequence runs redirections as a script of bash 5.2 does and
// compares with its output (bash -c '...' in a folder with dir/; stdout
// and stderr merged).
func TestSequence(t *testing.T) {
	sh := newShell()
	lines := []func(){
		func() { sh.cmd(false, []rd{{syntax.RdrIn, "", "nosuch"}}, cat) },
		func() { sh.cmd(false, []rd{{syntax.DplOut, "", "5"}}, echo("")) },
		func() {
			sh.cmd(false, []rd{{syntax.RdrOut, "", "f"}}, echo("a"))
			sh.o.Noclobber = true
			sh.cmd(false, []rd{{syntax.RdrOut, "", "f"}}, echo("b"))
			sh.cmd(false, []rd{{syntax.RdrClob, "", "f"}}, echo("c"))
			sh.o.Noclobber = false
			sh.catFile("f")
		},
		func() { sh.cmd(false, []rd{{syntax.RdrOut, "", "dir"}}, echo("hi")) },
		func() {
			sh.cmd(true, []rd{{syntax.RdrOut, "{fd}", "g"}}, nil)
			fmt.Fprintf(&sh.out, "fd=%d\n", sh.vars["fd"]+1) // bash -c's first free fd is 11
			sh.cmd(false, []rd{{syntax.DplOut, "", fmt.Sprint(sh.vars["fd"])}}, echo("viafd"))
			sh.catFile("g")
		},
		func() {
			sh.cmd(true, []rd{{syntax.RdrOut, "3", "h"}}, nil)
			sh.cmd(true, []rd{{syntax.DplOut, "4", "3-"}}, nil)
			sh.cmd(false, []rd{{syntax.DplOut, "", "4"}}, echo("to4"))
			sh.cmd(false, []rd{{syntax.DplOut, "", "3"}}, echo("to3"))
			sh.catFile("h")
		},
		func() {
			sh.cmd(false, []rd{{syntax.DplOut, "", "k"}}, func(t Table) { fmt.Fprintln(t.Stdout(), "both"); fmt.Fprint(t.Stderr(), "") })
			sh.catFile("k")
		},
		func() { sh.cmd(false, []rd{{syntax.DplOut, "2", "x"}}, echo("x")) },
		func() { sh.cmd(false, []rd{{syntax.RdrOut, "", ""}}, echo("")) },
		func() { sh.cmd(false, []rd{{syntax.AppOut, "", "f"}}, echo("app")); sh.catFile("f") },
		func() { sh.cmd(false, []rd{{syntax.DashHdoc, "", "tabbed\n"}}, cat) }, // the text as Hdoc gives it
		func() { sh.cmd(false, []rd{{syntax.WordHdoc, "", "here string"}}, cat) },
		func() {
			sh.cmd(true, []rd{{syntax.RdrInOut, "5", "rw"}}, nil)
			sh.cmd(false, []rd{{syntax.DplOut, "", "5"}}, echo("rw"))
			sh.catFile("rw")
		},
	}
	for i, l := range lines {
		sh.line = i + 2
		l()
	}
	want := `bash: line 2: nosuch: No such file or directory
bash: line 3: 5: Bad file descriptor
bash: line 4: f: cannot overwrite existing file
c
bash: line 5: dir: Is a directory
fd=11
viafd
bash: line 7: 3: Bad file descriptor
to4
both
bash: line 9: x: ambiguous redirect
bash: line 10: : No such file or directory
c
app
tabbed
here string
rw
`
	if got := sh.out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestDevices checks the devices the shell provides itself.
func TestDevices(t *testing.T) {
	sh := newShell()
	sh.line = 1
	sh.cmd(false, []rd{{syntax.RdrOut, "", "/dev/null"}}, echo("gone"))
	sh.cmd(false, []rd{{syntax.RdrIn, "", "/dev/zero"}}, func(t Table) {
		b := make([]byte, 3)
		n, _ := t.Stdin().Read(b)
		fmt.Fprintf(t.Stdout(), "zero %d %v\n", n, b)
	})
	sh.cmd(false, []rd{{syntax.RdrOut, "", "/dev/full"}}, func(t Table) {
		_, err := io.WriteString(t.Stdout(), "x")
		fmt.Fprintf(t.Stderr(), "full: %s %v\n", ErrText(err), t.Stdout().(*FullWriter).Failed.Load())
	})
	sh.cmd(false, []rd{{syntax.DplOut, "", "2"}, {syntax.RdrOut, "2", "/dev/stdout"}}, echo("stdout"))
	sh.cmd(false, []rd{{syntax.RdrIn, "", "/dev/fd/7"}}, cat)
	sh.cmd(false, []rd{{syntax.DplIn, "", "-"}}, func(t Table) {
		_, err := t.Stdin().Read(make([]byte, 1))
		fmt.Fprintln(t.Stdout(), "closed stdin:", ErrText(err))
	})
	if len(sh.t) != 3 {
		t.Errorf("the shell's own table changed: %v", sh.t)
	}
	want := "zero 3 [0 0 0]\nfull: No space left on device true\nstdout\n" +
		// bash 5.2 on Linux opens /dev/fd/7 itself
		"bash: line 1: /dev/fd/7: No such file or directory\n" +
		"closed stdin: bad file descriptor\n"
	if got := sh.out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := sh.fs.Stat("/dev/null"); !os.IsNotExist(err) {
		t.Errorf("/dev/null was created in the filesystem: %v", err)
	}
}

// TestHdoc checks a here-document's text: as written when its word is
// quoted, else expanded; <<- removes leading tabs.
func TestHdoc(t *testing.T) {
	parse := func(src string) *syntax.Redirect {
		f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
		if err != nil {
			t.Fatal(err)
		}
		return f.Stmts[0].Redirs[0]
	}
	expand := func(w *syntax.Word) (string, error) { return "<expanded>", nil }
	for _, c := range []struct{ src, want string }{
		{"cat <<EOF\n$x\nEOF\n", "<expanded>"},
		{"cat <<'EOF'\n$x $(y)\n\tz\nEOF\n", "$x $(y)\n\tz\n"},
		{"cat <<\\EOF\n$x\nEOF\n", "$x\n"},
		{"cat <<-\"EOF\"\n\t\t$x\n\t y\n\tEOF\n", "$x\n y\n"},
	} {
		got, err := Hdoc(parse(c.src), expand)
		if err != nil || got != c.want {
			t.Errorf("%q: %q, %v; want %q", c.src, got, err, c.want)
		}
	}
}

// closeCount is a memory filesystem that counts its files' closes.
type closeCount struct {
	afero.Fs
	closed map[string]int
}

type countedFile struct {
	afero.File
	fs *closeCount
}

func (f countedFile) Close() error {
	f.fs.closed[f.Name()]++
	return f.File.Close()
}

func (c *closeCount) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	f, err := c.Fs.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return countedFile{f, c}, nil
}

// TestRefs checks that a file a redirection opened is closed once, when
// the last table entry holding it lets go: Set over it, Close, a clone's
// Release, an Undo's Restore; and that Files.CloseAll closes what is
// still held.
func TestRefs(t *testing.T) {
	fsys := &closeCount{afero.NewMemMapFs(), map[string]int{}}
	files := &Files{}
	o := &Opener{FS: fsys, Abs: func(n string) string { return "/" + n }, Perm: 0o644, Files: files}
	tb := Table{1: {W: io.Discard, Name: "stdout"}}
	redirect := func(u *Undo, op syntax.RedirOperator, n, arg string) {
		t.Helper()
		if err := tb.Redirect(o, op, n, arg, func(string, int) error { return nil }, u); err != nil {
			t.Fatal(err)
		}
	}
	check := func(step string, want map[string]int, open int) {
		t.Helper()
		for name, n := range want {
			if fsys.closed[name] != n {
				t.Errorf("%s: %s closed %d times, want %d", step, name, fsys.closed[name], n)
			}
		}
		if files.Len() != open {
			t.Errorf("%s: %d files registered open, want %d", step, files.Len(), open)
		}
	}
	redirect(nil, syntax.RdrOut, "3", "a")
	redirect(nil, syntax.DplOut, "4", "3")
	tb.Close(3)
	check("3>a 4>&3 3>&-", map[string]int{"/a": 0}, 1)
	c := tb.Clone()
	tb.Close(4)
	check("a clone holds it", map[string]int{"/a": 0}, 1)
	c.Release()
	check("the clone released", map[string]int{"/a": 1}, 0)
	if len(c) != 0 {
		t.Errorf("a released table has %d entries", len(c))
	}

	redirect(nil, syntax.RdrOut, "3", "b")
	u := &Undo{}
	redirect(u, syntax.RdrOut, "3", "c")
	redirect(u, syntax.DplOut, "3", "-")
	check("a command's 3>c 3>&-", map[string]int{"/b": 0, "/c": 1}, 1)
	u.Restore(tb)
	if d := tb[3]; d == nil || d.Name != "b" {
		t.Fatalf("Restore put back %v, want b", d)
	}
	redirect(nil, syntax.RdrIn, "3", "b")
	check("3<b over 3>b", map[string]int{"/b": 1}, 1)
	files.CloseAll()
	check("CloseAll", map[string]int{"/b": 2}, 0)
	tb.Release()
	check("released after CloseAll", map[string]int{"/b": 2}, 0)
}
