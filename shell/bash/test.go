package bash

import (
	"io/fs"
	"regexp"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// test evaluates [[ expr ]].
func (r *Runner) test(x syntax.TestExpr) (bool, error) {
	switch x := x.(type) {
	case *syntax.Word:
		s, err := r.literal(x)
		return s != "", err
	case *syntax.ParenTest:
		return r.test(x.X)
	case *syntax.UnaryTest:
		if x.Op == syntax.TsNot {
			ok, err := r.test(x.X)
			return !ok, err
		}
		w, _ := x.X.(*syntax.Word)
		s, err := r.literal(w)
		if err != nil {
			return false, err
		}
		return r.unaryTest(x.Op.String(), s)
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.AndTest:
			a, err := r.test(x.X)
			if err != nil || !a {
				return false, err
			}
			return r.test(x.Y)
		case syntax.OrTest:
			a, err := r.test(x.X)
			if err != nil || a {
				return a, err
			}
			return r.test(x.Y)
		}
		lw, _ := x.X.(*syntax.Word)
		left, err := r.literal(lw)
		if err != nil {
			return false, err
		}
		rw, _ := x.Y.(*syntax.Word)
		switch x.Op {
		case syntax.TsMatch, syntax.TsMatchShort, syntax.TsNoMatch:
			pat, err := r.pattern(rw)
			if err != nil {
				return false, err
			}
			m := r.match(pat, left, r.shopt["nocasematch"])
			return m == (x.Op != syntax.TsNoMatch), nil
		case syntax.TsReMatch:
			return r.reMatch(left, rw)
		}
		right, err := r.literal(rw)
		if err != nil {
			return false, err
		}
		switch x.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsGtr, syntax.TsLeq, syntax.TsGeq:
			a, err := r.arithString(left)
			if err != nil {
				return false, err
			}
			b, err := r.arithString(right)
			if err != nil {
				return false, err
			}
			return cmpInt(x.Op.String(), a, b), nil
		}
		return r.binaryTest(x.Op.String(), left, right)
	}
	return false, nil
}

func cmpInt(op string, a, b int64) bool {
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

// reMatch is [[ s =~ re ]]: quoted parts of the regex match literally;
// BASH_REMATCH gets the groups.
func (r *Runner) reMatch(s string, w *syntax.Word) (bool, error) {
	var e wexp
	if err := r.wordParts(&e, w.Parts, false, false); err != nil {
		return false, err
	}
	var b strings.Builder
	for _, f := range e.fields {
		for _, sg := range f.segs {
			if sg.quoted {
				b.WriteString(regexp.QuoteMeta(sg.s))
			} else {
				b.WriteString(sg.s)
			}
		}
	}
	expr := b.String()
	if r.shopt["nocasematch"] {
		expr = "(?i)" + expr
	}
	re, err := regexp.CompilePOSIX(expr)
	if err != nil {
		re, err = regexp.Compile(expr)
		if err != nil {
			return false, &shError{status: 2, noExit: true}
		}
	}
	m := re.FindStringSubmatch(s)
	v := &Var{Set: true, Kind: kIndexed, Idx: map[int]string{}}
	for i, g := range m {
		v.Idx[i] = g
	}
	r.vars.global().vars["BASH_REMATCH"] = v
	return m != nil, nil
}

func (r *Runner) unaryTest(op, s string) (bool, error) {
	switch op {
	case "-z":
		return s == "", nil
	case "-n":
		return s != "", nil
	case "-o":
		return r.opt[s], nil
	case "-v":
		return r.isSet(s), nil
	case "-R":
		v, _ := r.vars.lookup(s)
		return v != nil && v.NameRef && v.Set, nil
	case "-t":
		return false, nil
	}
	if s == "" {
		return false, nil
	}
	p := r.abs(s)
	var fi fs.FileInfo
	var err error
	if op == "-L" || op == "-h" {
		fi, err = r.lstat(p)
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
	fi, err = r.fs.Stat(p)
	if err != nil {
		return false, nil
	}
	m := fi.Mode()
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

func (r *Runner) isSet(s string) bool {
	if name, idx, ok := strings.Cut(s, "["); ok && strings.HasSuffix(idx, "]") {
		pe, err := parseParamRef(name + "[" + idx)
		if err != nil {
			return false
		}
		_, _, _, set, err := r.paramValues(pe)
		return err == nil && set
	}
	_, ok := r.getVar(s)
	if !ok {
		v := r.lookupVar(s)
		return v != nil && v.Set && len(v.values()) > 0
	}
	return ok
}

func (r *Runner) binaryTest(op, a, b string) (bool, error) {
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
		fa, ea := r.fs.Stat(r.abs(a))
		fb, eb := r.fs.Stat(r.abs(b))
		if op == "-nt" {
			return ea == nil && (eb != nil || fa.ModTime().After(fb.ModTime())), nil
		}
		return eb == nil && (ea != nil || fa.ModTime().Before(fb.ModTime())), nil
	case "-ef":
		fa, ea := r.fs.Stat(r.abs(a))
		fb, eb := r.fs.Stat(r.abs(b))
		return ea == nil && eb == nil && r.abs(a) == r.abs(b) && fa.Name() == fb.Name(), nil
	}
	return false, nil
}

// testBuiltin is test and [.
func testBuiltin(r *Runner, args []string) int {
	name := args[0]
	args = args[1:]
	if name == "[" {
		if len(args) == 0 || args[len(args)-1] != "]" {
			r.errf("[: missing `]'")
			return 2
		}
		args = args[:len(args)-1]
	}
	t := &testParser{r: r, args: args, name: name}
	ok, err := t.expr(len(args))
	if err == nil && t.pos < len(t.args) {
		err = t.fail(t.args[t.pos] + ": " + func() string {
			if t.pos == 0 {
				return "unary operator expected"
			}
			return "binary operator expected"
		}())
	}
	if err != nil {
		if se, ok2 := err.(*shError); ok2 && se.msg != "" {
			r.errf("%s: %s", name, se.msg)
		}
		return 2
	}
	return b2i(!ok)
}

type testParser struct {
	r    *Runner
	args []string
	pos  int
	name string
}

func (t *testParser) fail(msg string) error { return &shError{msg: msg, status: 2} }

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
	return t.r.unaryTest(op, s)
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
		return cmpInt(op, x, y), nil
	}
	return t.r.binaryTest(op, a, b)
}
