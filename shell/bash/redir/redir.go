// Package redir is the shell's table of open file descriptors and bash's
// redirections over it: n>file, n>>file, n<file, n<>file, >|file,
// &>file, &>>file, n>&m, n<&m, n>&m-, n>&-, {var}>file, here-documents
// and here-strings, with /dev/null, /dev/zero, /dev/full, /dev/random,
// /dev/stdin, /dev/stdout, /dev/stderr and /dev/fd/N as bash provides
// them.
//
// # Contracts
//
//   - Redirect changes only the Table it is called on; the shell clones
//     the table first when the redirections are a command's own.
//   - Files are opened through Opener.FS only, at Opener.Abs's path.
//   - A redirection that fails returns an *Error with bash's message
//     ("f: No such file or directory", "3: Bad file descriptor", "f:
//     cannot overwrite existing file") and changes nothing more; the file
//     it opened, when one, is returned for the shell to close.
package redir

import (
	"crypto/rand"
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/spf13/afero"
	"mvdan.cc/sh/v3/syntax"
)

// FD is an open file descriptor of the shell.
type FD struct {
	R    io.Reader
	W    io.Writer
	F    afero.File // the file behind R/W, when one
	Name string
}

// Table is the shell's file descriptors by number.
type Table map[int]*FD

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
}

// devHandle wraps the FD Open returns for a /dev file: closing it does
// nothing.
type devHandle struct {
	afero.File
	d *FD
}

func (d *devHandle) Close() error { return nil }

// fdOf is the FD of a file Open returned.
func fdOf(f afero.File, name string) *FD {
	if df, ok := f.(*devHandle); ok {
		return df.d
	}
	return &FD{R: f, W: f, F: f, Name: name}
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
// word expanded (for a here-document or here-string, its text). It
// returns the file it opened for the command, nil when there is none
// to close after it (a device, a dup, {var}'s file, which stays open).
func (t Table) Redirect(o *Opener, op syntax.RedirOperator, n, target string, assign func(name string, fd int) error) (afero.File, error) {
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
		t[def(0)] = &FD{R: strings.NewReader(target), Name: "heredoc"}
		return nil, nil
	case syntax.WordHdoc:
		t[def(0)] = &FD{R: strings.NewReader(target + "\n"), Name: "herestring"}
		return nil, nil
	case syntax.DplIn, syntax.DplOut:
		to := def(1)
		if op == syntax.DplIn {
			to = def(0)
		}
		if target == "-" {
			delete(t, to)
			return nil, nil
		}
		move := strings.HasSuffix(target, "-")
		src, convErr := strconv.Atoi(strings.TrimSuffix(target, "-"))
		if convErr != nil {
			if op == syntax.DplOut && n == "" {
				// >&file: stdout and stderr to the file.
				f, err := o.Open(t, target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, false)
				if err != nil {
					return f, err
				}
				t[1] = fdOf(f, target)
				t[2] = t[1]
				return f, nil
			}
			return nil, &Error{target + ": ambiguous redirect"}
		}
		d, ok := t[src]
		if !ok {
			return nil, &Error{strconv.Itoa(src) + ": Bad file descriptor"}
		}
		if varName != "" {
			to = t.Alloc()
			_ = assign(varName, to)
		}
		t[to] = d
		if move {
			delete(t, src)
		}
		return nil, nil
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
		return nil, &Error{"unsupported redirection"}
	}
	f, err := o.Open(t, target, flag, clobber)
	if err != nil {
		return f, err
	}
	d := fdOf(f, target)
	if varName != "" {
		to = t.Alloc()
		if err := assign(varName, to); err != nil {
			return f, err
		}
		f = nil // {fd} stays open after the command
	}
	t[to] = d
	if op == syntax.RdrAll || op == syntax.AppAll {
		t[2] = d
	}
	return f, nil
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
