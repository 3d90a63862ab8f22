// Package cond evaluates bash's conditional expressions: the test and [
// builtins' arguments (POSIX's rules by argument count, then -a/-o
// precedence) and the unary and binary operators that [[ ]] shares with
// them (-f, -nt, -v, =, <, ...), and =~'s regular expression as bash's
// regcomp reads it ([Regexp]). The shell's files and variables are
// reached through [Env], so the package knows nothing of the interpreter.
package cond

import (
	"io/fs"
	"strconv"
	"strings"
)

// Env is what the operators read of the shell.
type Env interface {
	// Abs is the absolute, cleaned form of a path as the script wrote
	// it, resolved against the working directory (-ef compares them).
	Abs(path string) string
	// Stat and Lstat describe the file at an absolute path from Abs
	// (Lstat does not follow a final symbolic link); an error means the
	// test is false.
	Stat(path string) (fs.FileInfo, error)
	Lstat(path string) (fs.FileInfo, error)
	// Option reports whether set -o name is on (-o).
	Option(name string) bool
	// IsSet reports whether the variable or element name ("a", "a[1]")
	// is set (-v).
	IsSet(name string) bool
	// IsNameRef reports whether name is a set nameref (-R).
	IsNameRef(name string) bool
}

// Error is a usage error of test or [ ("x: unary operator expected");
// bash prints "test: MSG" and the status is 2.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Test evaluates the arguments of test (of [ without its closing ]): true
// or false, or an *Error.
func Test(env Env, args []string) (bool, error) {
	t := &testParser{env: env, args: args}
	ok, err := t.expr(len(args))
	if err == nil && t.pos < len(t.args) {
		err = t.fail(t.args[t.pos] + ": " + func() string {
			if t.pos == 0 {
				return "unary operator expected"
			}
			return "binary operator expected"
		}())
	}
	return ok, err
}

// CompareInt applies an integer operator (-eq, -ne, -lt, -gt, -le, -ge);
// any other op is false.
func CompareInt(op string, a, b int64) bool {
	switch op {
	case "-eq":
		return a == b
	case "-ne":
		return a != b
	case "-lt":
		return a < b
	case "-gt":
		return a > b
	case "-le":
		return a <= b
	case "-ge":
		return a >= b
	}
	return false
}

// Unary applies a unary operator (-z, -n, -o, -v, -R, -t and the file
// tests -e -f -d -s -r -w -x -L -h -c -b -p -S -k -u -g -O -G -N) to s.
// The error is always nil today; a caller passes it on.
func Unary(env Env, op, s string) (bool, error) {
	switch op {
	case "-z":
		return s == "", nil
	case "-n":
		return s != "", nil
	case "-o":
		return env.Option(s), nil
	case "-v":
		return env.IsSet(s), nil
	case "-R":
		return env.IsNameRef(s), nil
	case "-t":
		return false, nil
	}
	if s == "" {
		return false, nil
	}
	p := env.Abs(s)
	var fi fs.FileInfo
	var err error
	if op == "-L" || op == "-h" {
		fi, err = env.Lstat(p)
		if err != nil {
			return false, nil
		}
		return fi.Mode()&fs.ModeSymlink != 0, nil
	}
	switch s {
	case "/dev/null", "/dev/zero", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/urandom", "/dev/random", "/dev/tty":
		switch op {
		case "-e", "-c", "-r", "-w":
			return true, nil
		}
		return false, nil
	}
	fi, err = env.Stat(p)
	if err != nil {
		return false, nil
	}
	m := fi.Mode()
	if r, ok := fi.(interface{ RootOwned() bool }); ok && r.RootOwned() {
		// root's (the system's /usr/bin, ...): the sandbox's user has
		// the other bits
		switch op {
		case "-r":
			return m.Perm()&0o004 != 0, nil
		case "-w":
			return m.Perm()&0o002 != 0, nil
		case "-O", "-G":
			return false, nil
		}
	}
	switch op {
	case "-e", "-a":
		return true, nil
	case "-f":
		return m.IsRegular(), nil
	case "-d":
		return m.IsDir(), nil
	case "-s":
		return fi.Size() > 0, nil
	case "-r", "-w":
		return m.Perm()&0o600 != 0 || m.IsDir(), nil
	case "-x":
		return m.Perm()&0o111 != 0, nil
	case "-c":
		return m&fs.ModeCharDevice != 0, nil
	case "-b":
		return m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0, nil
	case "-p":
		return m&fs.ModeNamedPipe != 0, nil
	case "-S":
		return m&fs.ModeSocket != 0, nil
	case "-k":
		return m&fs.ModeSticky != 0, nil
	case "-u":
		return m&fs.ModeSetuid != 0, nil
	case "-g":
		return m&fs.ModeSetgid != 0, nil
	case "-O", "-G", "-N":
		return true, nil
	}
	return false, nil
}

// Binary applies a string or file operator (=, ==, !=, <, >, -nt, -ot,
// -ef) to a and b; any other op is false. The error is always nil today;
// a caller passes it on.
func Binary(env Env, op, a, b string) (bool, error) {
	switch op {
	case "=", "==":
		return a == b, nil
	case "!=":
		return a != b, nil
	case "<":
		return a < b, nil
	case ">":
		return a > b, nil
	case "-nt", "-ot":
		fa, ea := env.Stat(env.Abs(a))
		fb, eb := env.Stat(env.Abs(b))
		if op == "-nt" {
			return ea == nil && (eb != nil || fa.ModTime().After(fb.ModTime())), nil
		}
		return eb == nil && (ea != nil || fa.ModTime().Before(fb.ModTime())), nil
	case "-ef":
		fa, ea := env.Stat(env.Abs(a))
		fb, eb := env.Stat(env.Abs(b))
		return ea == nil && eb == nil && env.Abs(a) == env.Abs(b) && fa.Name() == fb.Name(), nil
	}
	return false, nil
}

type testParser struct {
	env  Env
	args []string
	pos  int
}

func (t *testParser) fail(msg string) error { return &Error{Msg: msg} }

var unaryOps = map[string]bool{"-e": true, "-f": true, "-d": true, "-s": true, "-r": true, "-w": true, "-x": true, "-L": true, "-h": true, "-z": true, "-n": true, "-c": true, "-b": true, "-p": true, "-S": true, "-k": true, "-u": true, "-g": true, "-a": true, "-o": true, "-v": true, "-R": true, "-t": true, "-O": true, "-G": true, "-N": true}
var binaryOps = map[string]bool{"=": true, "==": true, "!=": true, "<": true, ">": true, "-eq": true, "-ne": true, "-lt": true, "-gt": true, "-le": true, "-ge": true, "-nt": true, "-ot": true, "-ef": true}

// expr evaluates n remaining args with POSIX's rules for up to 4
// arguments and -o/-a precedence beyond.
func (t *testParser) expr(n int) (bool, error) {
	switch n {
	case 0:
		return false, nil
	case 1:
		t.pos++
		return t.args[t.pos-1] != "", nil
	case 2:
		a, b := t.args[t.pos], t.args[t.pos+1]
		if a == "!" {
			t.pos += 2
			return b == "", nil
		}
		if unaryOps[a] {
			t.pos += 2
			return t.unary(a, b)
		}
		t.pos++
		return false, t.fail(a + ": unary operator expected")
	case 3:
		a, op, b := t.args[t.pos], t.args[t.pos+1], t.args[t.pos+2]
		if binaryOps[op] {
			t.pos += 3
			return t.binary(a, op, b)
		}
		if op == "-a" || op == "-o" {
			t.pos += 3
			if op == "-a" {
				return a != "" && b != "", nil
			}
			return a != "" || b != "", nil
		}
		if a == "!" {
			t.pos++
			v, err := t.expr(2)
			return !v, err
		}
		if a == "(" && b == ")" {
			t.pos += 3
			return op != "", nil
		}
		t.pos++
		return false, t.fail(op + ": binary operator expected")
	case 4:
		if t.args[t.pos] == "!" {
			t.pos++
			v, err := t.expr(3)
			return !v, err
		}
		if t.args[t.pos] == "(" && t.args[t.pos+3] == ")" {
			t.pos++
			v, err := t.expr(2)
			t.pos++
			return v, err
		}
	}
	return t.or()
}

func (t *testParser) or() (bool, error) {
	v, err := t.and()
	for err == nil && t.pos < len(t.args) && t.args[t.pos] == "-o" {
		t.pos++
		w, e := t.and()
		v, err = v || w, e
	}
	return v, err
}

func (t *testParser) and() (bool, error) {
	v, err := t.not()
	for err == nil && t.pos < len(t.args) && t.args[t.pos] == "-a" {
		t.pos++
		w, e := t.not()
		v, err = v && w, e
	}
	return v, err
}

func (t *testParser) not() (bool, error) {
	if t.pos < len(t.args) && t.args[t.pos] == "!" {
		t.pos++
		v, err := t.not()
		return !v, err
	}
	return t.primary()
}

func (t *testParser) primary() (bool, error) {
	if t.pos >= len(t.args) {
		return false, t.fail("argument expected")
	}
	a := t.args[t.pos]
	if a == "(" {
		t.pos++
		v, err := t.or()
		if err != nil {
			return false, err
		}
		if t.pos >= len(t.args) || t.args[t.pos] != ")" {
			return false, t.fail("`)' expected")
		}
		t.pos++
		return v, nil
	}
	if t.pos+2 < len(t.args)+0 && binaryOps[t.args[t.pos+1]] {
		t.pos += 3
		return t.binary(a, t.args[t.pos-2], t.args[t.pos-1])
	}
	if unaryOps[a] && t.pos+1 < len(t.args) {
		t.pos += 2
		return t.unary(a, t.args[t.pos-1])
	}
	t.pos++
	return a != "", nil
}

func (t *testParser) unary(op, s string) (bool, error) {
	return Unary(t.env, op, s)
}

func (t *testParser) binary(a, op, b string) (bool, error) {
	switch op {
	case "-eq", "-ne", "-lt", "-gt", "-le", "-ge":
		x, err := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
		if err != nil {
			return false, t.fail(a + ": integer expression expected")
		}
		y, err := strconv.ParseInt(strings.TrimSpace(b), 10, 64)
		if err != nil {
			return false, t.fail(b + ": integer expression expected")
		}
		return CompareInt(op, x, y), nil
	}
	return Binary(t.env, op, a, b)
}
