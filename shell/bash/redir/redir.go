// Package redir is the shell's table of open file descriptors and bash's
// redirections over it: n>file, n>>file, n<file, n<>file, >|file,
// &>file, &>>file, n>&m, n<&m, n>&m-, n>&-, {var}>file, here-documents
// and here-strings, with /dev/null, /dev/zero, /dev/full, /dev/random,
// /dev/stdin, /dev/stdout, /dev/stderr and /dev/fd/N as bash provides
// them.
//
// # Contracts
//
//   - An FD is what a Unix open file description is to the tables: the
//     entries of every Table (the shell's and its subshells') that point
//     at it each hold it, and the file it owns (FD.F) is closed once,
//     when the last entry lets go of it (Table.Set over it, Table.Close,
//     Table.Release). A Table is owned by one shell: copies are made with
//     Clone, and changed only through Set, Close and Redirect.
//   - Redirect changes only the Table it is called on; with an Undo it
//     records what the entries it changed held before, and Undo.Restore
//     puts them back (a command's own redirections), leaving the entries
//     the command changed otherwise (exec inside a { } group) as they
//     are now, as bash does.
//   - Files are opened through Opener.FS only, at Opener.Abs's path, and
//     each is registered in Opener.Files until closed: Files.CloseAll
//     closes what a shell that ended left open (background jobs cut
//     short).
//   - A redirection that fails returns an *Error with bash's message
//     ("f: No such file or directory", "3: Bad file descriptor", "f:
//     cannot overwrite existing file") and changes nothing more; a file it
//     opened is closed.
package redir

import (
	"crypto/rand"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/spf13/afero"
	"mvdan.cc/sh/v3/syntax"
)

// FD is an open file of the shell, which one or more descriptors of its
// tables point at.
type FD struct {
	R io.Reader
	W io.Writer
	// F is the file behind R/W that the FD owns, when one: closed when
	// no Table entry holds the FD any more. Nil for what someone else
	// closes (pipes, the shell's own streams, devices).
	F    afero.File
	Name string

	refs   atomic.Int32 // the Table entries that hold it (with F)
	closed atomic.Bool
	files  *Files // where F is registered, when it is
}

// retain counts one more Table entry holding d.
func (d *FD) retain() {
	if d != nil && d.F != nil {
		d.refs.Add(1)
	}
}

// release counts one entry less: the last one closes F.
func (d *FD) release() {
	if d != nil && d.F != nil && d.refs.Add(-1) <= 0 {
		d.close()
	}
}

// close closes F once.
func (d *FD) close() {
	if d.F == nil || !d.closed.CompareAndSwap(false, true) {
		return
	}
	_ = d.F.Close()
	if d.files != nil {
		d.files.mu.Lock()
		delete(d.files.open, d)
		d.files.mu.Unlock()
	}
}

// Files is the registry of the files a shell's Opener opened and that
// are not closed yet.
type Files struct {
	mu   sync.Mutex
	open map[*FD]struct{}
}

func (fs *Files) add(d *FD) {
	if fs == nil {
		return
	}
	fs.mu.Lock()
	if fs.open == nil {
		fs.open = map[*FD]struct{}{}
	}
	fs.open[d] = struct{}{}
	d.files = fs
	fs.mu.Unlock()
}

// Len is how many of them are open.
func (fs *Files) Len() int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return len(fs.open)
}

// CloseAll closes every file still open, whoever holds it: for a shell
// that ended.
func (fs *Files) CloseAll() {
	fs.mu.Lock()
	open := make([]*FD, 0, len(fs.open))
	for d := range fs.open {
		open = append(open, d)
	}
	fs.mu.Unlock()
	for _, d := range open {
		d.close()
	}
}

// Table is the shell's file descriptors by number.
type Table map[int]*FD

// Set makes n point at d (nil: n is closed), letting go of what n held.
func (t Table) Set(n int, d *FD) {
	if d == nil {
		t.Close(n)
		return
	}
	d.retain()
	old := t[n]
	t[n] = d
	old.release()
}

// Close closes n, when open.
func (t Table) Close(n int) {
	if old, ok := t[n]; ok {
		delete(t, n)
		old.release()
	}
}

// Clone is a copy of t (an empty table for nil), holding each FD too,
// as a forked process's table does.
func (t Table) Clone() Table {
	if t == nil {
		return Table{}
	}
	c := maps.Clone(t)
	for _, d := range c {
		d.retain()
	}
	return c
}

// Release lets go of every entry of t, which is empty after it: for a
// shell that ended.
func (t Table) Release() {
	for n, d := range t {
		delete(t, n)
		d.release()
	}
}

// Undo records what the entries a command's redirections change held
// before them.
type Undo struct {
	saved []savedFD
}

type savedFD struct {
	n  int
	d  *FD // nil: closed
	ok bool
}

// save records n's entry in t, the first time n changes.
func (u *Undo) save(t Table, n int) {
	if u == nil {
		return
	}
	for _, s := range u.saved {
		if s.n == n {
			return
		}
	}
	d, ok := t[n]
	d.retain()
	u.saved = append(u.saved, savedFD{n, d, ok})
}

// Set is t.Set(n, d), recorded in u.
func (u *Undo) Set(t Table, n int, d *FD) {
	u.save(t, n)
	t.Set(n, d)
}

// Restore puts the entries u recorded back into t; u is empty after it.
func (u *Undo) Restore(t Table) {
	for i := len(u.saved) - 1; i >= 0; i-- {
		s := u.saved[i]
		if s.ok {
			t.Set(s.n, s.d)
		} else {
			t.Close(s.n)
		}
		s.d.release()
	}
	u.saved = u.saved[:0]
}

// Keep makes the changes u recorded stay (exec); u is empty after it.
func (u *Undo) Keep() {
	for _, s := range u.saved {
		s.d.release()
	}
	u.saved = u.saved[:0]
}

// Stdin is fd 0's reader, or one whose reads fail with EBADF.
func (t Table) Stdin() io.Reader {
	if f, ok := t[0]; ok && f.R != nil {
		return f.R
	}
	return badReader{}
}

// Stdout is fd 1's writer, or one whose writes fail with EBADF.
func (t Table) Stdout() io.Writer {
	if f, ok := t[1]; ok && f.W != nil {
		return f.W
	}
	return badWriter{}
}

// Stderr is fd 2's writer, or io.Discard.
func (t Table) Stderr() io.Writer {
	if f, ok := t[2]; ok && f.W != nil {
		return f.W
	}
	return io.Discard
}

// VarName is name when n, a redirection's fd word, is {name}.
func VarName(n string) (string, bool) {
	if len(n) > 2 && n[0] == '{' && n[len(n)-1] == '}' {
		return n[1 : len(n)-1], true
	}
	return "", false
}

// Alloc is the lowest free fd from 10, as {var}>file takes.
func (t Table) Alloc() int {
	for n := 10; ; n++ {
		if _, ok := t[n]; !ok {
			return n
		}
	}
}

type badWriter struct{}

func (badWriter) Write([]byte) (int, error) { return 0, syscall.EBADF }

type badReader struct{}

func (badReader) Read([]byte) (int, error) { return 0, syscall.EBADF }

// Error is a redirection that failed, with bash's message.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Opener opens the files redirections name.
type Opener struct {
	FS afero.Fs
	// Abs is the absolute, clean path of a name.
	Abs func(name string) string
	// Noclobber is set -C: > does not truncate an existing regular file.
	Noclobber bool
	// Perm is a created file's mode (before the umask FS applies).
	Perm fs.FileMode
	// TooManyFiles reports the open files limit reached (ulimit -n).
	TooManyFiles func() bool
	// Files, when set, registers the files opened (Files.CloseAll).
	Files *Files
}

// devHandle wraps the FD Open returns for a /dev file: closing it does
// nothing.
type devHandle struct {
	afero.File
	d *FD
}

func (d *devHandle) Close() error { return nil }

// fdOf is the FD of a file o.Open returned, which owns the file.
func (o *Opener) fdOf(f afero.File, name string) *FD {
	if df, ok := f.(*devHandle); ok {
		return df.d
	}
	d := &FD{R: f, W: f, F: f, Name: name}
	o.Files.add(d)
	return d
}

// device is what /dev/stdin, /dev/stdout, /dev/stderr or /dev/fd/N
// names in t (nil when that descriptor is not open, or N is not a
// descriptor's decimal number); ok is false for any other name.
func (t Table) device(name string) (d *FD, ok bool) {
	i := -1
	switch name {
	case "/dev/stdin":
		i = 0
	case "/dev/stdout":
		i = 1
	case "/dev/stderr":
		i = 2
	default:
		n, ok := strings.CutPrefix(name, "/dev/fd/")
		if !ok {
			return nil, false
		}
		if v, err := strconv.Atoi(n); err == nil && v >= 0 && strconv.Itoa(v) == n {
			i = v
		}
	}
	if i < 0 {
		return nil, true
	}
	return t[i], true
}

// Open opens name for a redirection with flag (os.O_*); clobber is >|,
// which noclobber does not refuse. The devices are the shell's own, t's
// for /dev/stdin, /dev/stdout, /dev/stderr and /dev/fd/N.
func (o *Opener) Open(t Table, name string, flag int, clobber bool) (afero.File, error) {
	switch name {
	case "/dev/null":
		return &devHandle{d: &FD{R: strings.NewReader(""), W: io.Discard, Name: name}}, nil
	case "/dev/urandom", "/dev/random":
		return &devHandle{d: &FD{R: rand.Reader, W: io.Discard, Name: name}}, nil
	case "/dev/zero":
		return &devHandle{d: &FD{R: zeroReader{}, W: io.Discard, Name: name}}, nil
	case "/dev/full":
		return &devHandle{d: &FD{R: zeroReader{}, W: &FullWriter{}, Name: name}}, nil
	}
	if d, ok := t.device(name); ok {
		if d == nil {
			// bash 5.2 on Linux opens /dev/fd/N itself: a closed
			// descriptor, or N not written as the kernel names it
			// (/dev/fd/07), is not there.
			return nil, &Error{name + ": No such file or directory"}
		}
		return &devHandle{d: d}, nil
	}
	if name == "" {
		return nil, &Error{": No such file or directory"}
	}
	if o.TooManyFiles != nil && o.TooManyFiles() {
		return nil, &Error{name + ": Too many open files"}
	}
	abs := o.Abs(name)
	if o.Noclobber && !clobber && flag&os.O_TRUNC != 0 {
		if fi, err := o.FS.Stat(abs); err == nil && fi.Mode().IsRegular() {
			return nil, &Error{name + ": cannot overwrite existing file"}
		}
	}
	if fi, err := o.FS.Stat(abs); err == nil && fi.IsDir() && flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		return nil, &Error{name + ": Is a directory"}
	}
	f, err := o.FS.OpenFile(abs, flag, o.Perm)
	if err != nil {
		return nil, &Error{name + ": " + ErrText(err)}
	}
	return f, nil
}

// FullWriter is /dev/full: every write fails with ENOSPC. Failed tells
// a builtin that ignored the error that its output was lost.
type FullWriter struct{ Failed atomic.Bool }

func (w *FullWriter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	w.Failed.Store(true)
	return 0, &fs.PathError{Op: "write", Path: "/dev/full", Err: syscall.ENOSPC}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// ErrText is the C library's wording of a file error, as the shell's
// messages print it: "No such file or directory".
func ErrText(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	case errors.Is(err, fs.ErrExist):
		return "File exists"
	case errors.Is(err, syscall.EISDIR):
		return "Is a directory"
	case errors.Is(err, syscall.ENOTDIR):
		return "Not a directory"
	case errors.Is(err, syscall.ENOSPC):
		return "No space left on device"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Redirect applies one redirection to t: op with its fd word n as
// written before it ("" for the operator's default fd, "{var}" or a
// name to allocate one and assign it with assign) and its target, the
// word expanded (for a here-document or here-string, its text). u, when
// not nil, records the entries it changes, except {var}'s, which stay
// after the command as in bash. A file opened for a redirection that
// then fails is closed.
func (t Table) Redirect(o *Opener, op syntax.RedirOperator, n, target string, assign func(name string, fd int) error, u *Undo) error {
	fd := -1
	varName := ""
	if n != "" {
		if strings.HasPrefix(n, "{") && strings.HasSuffix(n, "}") {
			varName = n[1 : len(n)-1]
		} else if v, err := strconv.Atoi(n); err == nil {
			fd = v
		} else {
			varName = n
		}
	}
	def := func(d int) int {
		if fd < 0 && varName == "" {
			return d
		}
		return fd
	}
	switch op {
	case syntax.Hdoc, syntax.DashHdoc:
		u.Set(t, def(0), &FD{R: strings.NewReader(target), Name: "heredoc"})
		return nil
	case syntax.WordHdoc:
		u.Set(t, def(0), &FD{R: strings.NewReader(target + "\n"), Name: "herestring"})
		return nil
	case syntax.DplIn, syntax.DplOut:
		to := def(1)
		if op == syntax.DplIn {
			to = def(0)
		}
		if target == "-" {
			u.save(t, to)
			t.Close(to)
			return nil
		}
		move := strings.HasSuffix(target, "-")
		src, convErr := strconv.Atoi(strings.TrimSuffix(target, "-"))
		if convErr != nil {
			if op == syntax.DplOut && n == "" {
				// >&file: stdout and stderr to the file.
				f, err := o.Open(t, target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, false)
				if err != nil {
					return err
				}
				d := o.fdOf(f, target)
				u.Set(t, 1, d)
				u.Set(t, 2, d)
				return nil
			}
			return &Error{target + ": ambiguous redirect"}
		}
		d, ok := t[src]
		if !ok {
			return &Error{strconv.Itoa(src) + ": Bad file descriptor"}
		}
		if varName != "" {
			to = t.Alloc()
			_ = assign(varName, to)
			t.Set(to, d)
		} else if to != src {
			u.Set(t, to, d)
		}
		if move && to != src {
			u.save(t, src)
			t.Close(src)
		}
		return nil
	}
	var flag int
	clobber := false
	to := def(1)
	switch op {
	case syntax.RdrOut, syntax.RdrAll:
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	case syntax.RdrClob:
		flag, clobber = os.O_WRONLY|os.O_CREATE|os.O_TRUNC, true
	case syntax.AppOut, syntax.AppAll:
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	case syntax.RdrIn:
		flag, to = os.O_RDONLY, def(0)
	case syntax.RdrInOut:
		flag, to = os.O_RDWR|os.O_CREATE, def(0)
	default:
		return &Error{"unsupported redirection"}
	}
	f, err := o.Open(t, target, flag, clobber)
	if err != nil {
		return err
	}
	d := o.fdOf(f, target)
	if varName != "" {
		// {fd} stays open after the command
		to = t.Alloc()
		if err := assign(varName, to); err != nil {
			if d.refs.Load() == 0 {
				d.close() // opened for this redirection alone
			}
			return err
		}
		t.Set(to, d)
		return nil
	}
	u.Set(t, to, d)
	if op == syntax.RdrAll || op == syntax.AppAll {
		u.Set(t, 2, d)
	}
	return nil
}

// Hdoc is a here-document's text: its body as written when its
// delimiter word is quoted (any quote or backslash), else expanded by
// expand; with <<- each line's leading tabs removed.
func Hdoc(rd *syntax.Redirect, expand func(body *syntax.Word) (string, error)) (string, error) {
	text, err := hdocBody(rd, expand)
	if err != nil || rd.Op != syntax.DashHdoc {
		return text, err
	}
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, ""), nil
}

func hdocBody(rd *syntax.Redirect, expand func(body *syntax.Word) (string, error)) (string, error) {
	if rd.Hdoc == nil {
		return "", nil
	}
	quoted := false
	for _, p := range rd.Word.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			quoted = true
		case *syntax.Lit:
			if strings.Contains(p.Value, "\\") {
				quoted = true
			}
		}
	}
	if !quoted {
		return expand(rd.Hdoc)
	}
	var b strings.Builder
	for _, p := range rd.Hdoc.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		} else {
			_ = syntax.NewPrinter().Print(&b, p)
		}
	}
	return b.String(), nil
}
