package findutil

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/fileutil"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/shell/posixre"
	"github.com/agentenkit/agentenkit/shell/quotearg"
	"mvdan.cc/sh/v3/pattern"
)

func init() { command.Register(posixfs.Strictly(fsFind), "find") }

// fsFindEnt is one file find visits.
type fsFindEnt struct {
	path  string // as printed
	abs   string
	start string // the starting point it was found under
	fi    fs.FileInfo
	depth int
}

// fsFindNode is one node of find's expression.
type fsFindNode func(f *fsFinder, e *fsFindEnt) bool

// fsFinder is one run of find.
type fsFinder struct {
	ctx      context.Context
	c        *command.Call
	w        *bufio.Writer
	loc      *time.Location
	now      time.Time
	expr     fsFindNode
	maxDepth int
	minDepth int
	depthFst bool
	follow   byte // 'P' never, 'H' starting points, 'L' always
	// regexType is the -regextype in force: "" (emacs, GNU's default),
	// "bre" or "ere" (shell/posixre).
	regexType string
	status    int
	quit      bool
	prune     bool // set by -prune for the entry being evaluated
	batches   []*fsFindBatch

	// parsing
	args      []string
	pos       int
	hasAction bool
	sawTest   string // the first non-option primary, for the warning
	err       error
}

// fsFindBatch is the pending arguments of one "-exec ... {} +".
type fsFindBatch struct {
	cmd  []string // before {}
	args []string
	dir  string // -execdir's folder ("" for -exec)
	size int
}

// fsFind is find: starting points, then an expression of options
// (-maxdepth -mindepth -depth -xdev -follow), tests (-name -iname -path
// -ipath -wholename -regex -iregex -type -xtype -size -empty -newer
// -mtime -mmin -atime -amin -ctime -cmin -perm -user -group -uid -gid
// -links -readable -writable -executable -true -false) and actions
// (-print -print0 -printf -ls -exec ... {} ; -exec ... {} + -execdir -ok
// -delete -prune -quit) joined by ( ) ! -not -a -and -o -or and ",".
// Folders are read in name order (GNU find reads them in the order the
// filesystem lists them). Before the starting points: -H, -L, -P.
func fsFind(ctx context.Context, c *command.Call, args []string) error {
	f := &fsFinder{ctx: ctx, c: c, loc: fileutil.Location(c), now: time.Now(), maxDepth: -1, follow: 'P'}
	args = args[1:]
	for len(args) > 0 && (args[0] == "-H" || args[0] == "-L" || args[0] == "-P") {
		f.follow = args[0][1]
		args = args[1:]
	}
	var starts []string
	for len(args) > 0 && !strings.HasPrefix(args[0], "-") && args[0] != "(" && args[0] != "!" && args[0] != ")" && args[0] != "," {
		starts = append(starts, args[0])
		args = args[1:]
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	f.args = args
	expr := f.parseExpr()
	if f.err == nil && f.pos < len(f.args) {
		if f.args[f.pos] == ")" {
			f.err = errors.New("invalid expression; you have too many ')'")
		} else {
			f.err = fmt.Errorf("paths must precede expression: %s", quotearg.Quote(f.args[f.pos]))
		}
	}
	if f.err != nil {
		posixfs.Warn(c, "find", "%s", f.err)
		return command.Exit(1)
	}
	if expr == nil {
		expr = func(*fsFinder, *fsFindEnt) bool { return true }
	}
	if !f.hasAction {
		inner := expr
		expr = func(f *fsFinder, e *fsFindEnt) bool {
			if inner(f, e) {
				f.print(e, "\n")
			}
			return true
		}
	}
	f.expr = expr
	f.w = bufio.NewWriterSize(c.Stdout, 32<<10)
	defer f.w.Flush()
	for _, s := range starts {
		if f.quit || ctx.Err() != nil {
			break
		}
		abs := c.Abs(s)
		fi, err := f.stat(abs, true)
		if err == nil && posixfs.IsSymlink(fi) && strings.HasSuffix(s, "/") {
			// "/bin/": the path asks for the folder the link leads to
			if st, serr := c.FS.Stat(abs); serr == nil {
				fi = st
			}
		}
		if err != nil {
			f.w.Flush()
			posixfs.Warn(c, "find", "%s: %s", quotearg.Quote(s), posixfs.ErrText(err))
			f.status = 1
			continue
		}
		f.visit(&fsFindEnt{path: s, abs: abs, start: s, fi: fi}, nil)
	}
	f.flushAll()
	if err := ctx.Err(); err != nil {
		return err
	}
	return command.Exit(f.status)
}

// stat describes abs, following a link as -H/-L say.
func (f *fsFinder) stat(abs string, top bool) (fs.FileInfo, error) {
	fi, err := posixfs.Lstat(f.c.FS, abs)
	if err == nil && posixfs.IsSymlink(fi) && (f.follow == 'L' || (f.follow == 'H' && top)) {
		if st, serr := f.c.FS.Stat(abs); serr == nil {
			return st, nil
		}
	}
	return fi, err
}

// visit evaluates e and walks into it; seen holds the folders above it
// (resolved), against loops through links.
func (f *fsFinder) visit(e *fsFindEnt, seen []string) {
	if f.quit || f.ctx.Err() != nil {
		return
	}
	eval := e.depth >= f.minDepth
	f.prune = false
	if eval && !f.depthFst {
		f.expr(f, e)
	}
	pruned := f.prune && !f.depthFst
	if e.fi.IsDir() && !pruned && !f.quit && (f.maxDepth < 0 || e.depth < f.maxDepth) {
		if f.follow != 'P' {
			real, err := posixfs.Resolve(f.c.FS, "/", e.abs, 'e')
			if err == nil {
				for _, s := range seen {
					if s == real {
						f.w.Flush()
						posixfs.Warn(f.c, "find", "File system loop detected; %s is part of the same file system loop as %s.", quotearg.Quote(e.path), quotearg.Quote(e.start))
						f.status = 1
						return
					}
				}
				seen = append(seen, real)
			}
		}
		list, err := posixfs.ReadDir(f.c.FS, e.abs)
		if err != nil {
			f.w.Flush()
			posixfs.Warn(f.c, "find", "%s: %s", quotearg.Quote(e.path), posixfs.ErrText(err))
			f.status = 1
		}
		for _, fi := range list {
			if f.quit || f.ctx.Err() != nil {
				return
			}
			abs := path.Join(e.abs, fi.Name())
			if f.follow == 'L' && posixfs.IsSymlink(fi) {
				if st, err := f.c.FS.Stat(abs); err == nil {
					fi = fileutil.WithName(st, fi.Name())
				}
			}
			f.visit(&fsFindEnt{path: posixfs.Join(e.path, fi.Name()), abs: abs, start: e.start, fi: fi, depth: e.depth + 1}, seen)
		}
	}
	if eval && f.depthFst && !f.quit {
		f.expr(f, e)
	}
}

func (f *fsFinder) print(e *fsFindEnt, end string) {
	f.w.WriteString(e.path)
	f.w.WriteString(end)
}

// Parsing: expr = list; list = or {"," or}; or = and {-o and};
// and = unary {[-a] unary}; unary = (!|-not) unary | "(" list ")" | primary.

func (f *fsFinder) peek() string {
	if f.pos < len(f.args) {
		return f.args[f.pos]
	}
	return ""
}

func (f *fsFinder) parseExpr() fsFindNode {
	if f.pos >= len(f.args) {
		return nil
	}
	left := f.parseOr()
	for f.err == nil && f.peek() == "," {
		f.pos++
		right := f.parseOr()
		l, r := left, right
		left = func(f *fsFinder, e *fsFindEnt) bool { l(f, e); return r(f, e) }
	}
	return left
}

func (f *fsFinder) parseOr() fsFindNode {
	left := f.parseAnd()
	for f.err == nil && (f.peek() == "-o" || f.peek() == "-or") {
		f.pos++
		right := f.parseAnd()
		l, r := left, right
		left = func(f *fsFinder, e *fsFindEnt) bool { return l(f, e) || r(f, e) }
	}
	return left
}

func (f *fsFinder) parseAnd() fsFindNode {
	left := f.parseUnary()
	for f.err == nil {
		p := f.peek()
		if p == "" || p == "-o" || p == "-or" || p == ")" || p == "," {
			break
		}
		if p == "-a" || p == "-and" {
			f.pos++
		}
		right := f.parseUnary()
		l, r := left, right
		left = func(f *fsFinder, e *fsFindEnt) bool { return l(f, e) && r(f, e) }
	}
	return left
}

func (f *fsFinder) parseUnary() fsFindNode {
	never := func(*fsFinder, *fsFindEnt) bool { return false }
	if f.err != nil {
		return never
	}
	switch p := f.peek(); p {
	case "":
		f.err = errors.New("expected an expression")
		return never
	case "!", "-not":
		f.pos++
		inner := f.parseUnary()
		return func(f *fsFinder, e *fsFindEnt) bool { return !inner(f, e) }
	case "(":
		f.pos++
		if f.peek() == ")" {
			f.err = errors.New("invalid expression; empty parentheses are not allowed.")
			return never
		}
		inner := f.parseExpr()
		if f.err == nil && f.peek() != ")" {
			f.err = errors.New("invalid expression; I was expecting to find a ')' somewhere but did not see one.")
			return never
		}
		f.pos++
		return inner
	}
	n := f.parsePrimary()
	if n == nil {
		return never
	}
	return n
}

// arg takes the argument of the primary name.
func (f *fsFinder) arg(name string) (string, bool) {
	if f.pos >= len(f.args) {
		f.err = fmt.Errorf("missing argument to %s", quotearg.Quote(name))
		return "", false
	}
	a := f.args[f.pos]
	f.pos++
	return a, true
}

// fsFindCmp parses find's numeric arguments: "+N" (more than), "-N"
// (less than), "N" (exactly).
func fsFindCmp(s string) (op byte, n float64, ok bool) {
	op = '='
	if s != "" && (s[0] == '+' || s[0] == '-') {
		op, s = s[0], s[1:]
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || s == "" || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, 0, false
	}
	return op, v, true
}

func fsCmp(op byte, have, want float64) bool {
	switch op {
	case '+':
		return have > want
	case '-':
		return have < want
	}
	return have == want
}

func (f *fsFinder) parsePrimary() fsFindNode {
	name := f.args[f.pos]
	f.pos++
	isOption := false
	defer func() {
		if !isOption && f.sawTest == "" {
			f.sawTest = name
		}
	}()
	globalOpt := func() {
		isOption = true
		if f.sawTest != "" {
			posixfs.Warn(f.c, "find", "warning: you have specified the global option %s after the argument %s, but global options are not positional, i.e., %s affects tests specified before it as well as those specified after it.  Please specify global options before other arguments.", name, f.sawTest, name)
		}
	}
	yes := func(*fsFinder, *fsFindEnt) bool { return true }
	switch name {
	case "-maxdepth", "-mindepth":
		globalOpt()
		a, ok := f.arg(name)
		if !ok {
			return nil
		}
		n, err := strconv.Atoi(a)
		if err != nil || n < 0 {
			f.err = fmt.Errorf("Expected a positive decimal integer argument to %s, but got %s", name, quotearg.Quote(a))
			return nil
		}
		if name == "-maxdepth" {
			f.maxDepth = n
		} else {
			f.minDepth = n
		}
		return yes
	case "-depth", "-d":
		globalOpt()
		f.depthFst = true
		return yes
	case "-xdev", "-mount", "-noleaf", "-ignore_readdir_race", "-noignore_readdir_race", "-daystart", "-nowarn", "-warn":
		globalOpt()
		return yes
	case "-follow":
		globalOpt()
		f.follow = 'L'
		return yes
	case "-regextype":
		globalOpt()
		typ, ok := f.arg(name)
		if !ok {
			return nil
		}
		switch typ {
		case "findutils-default", "emacs":
			f.regexType = ""
		case "posix-basic", "posix-minimal-basic", "grep", "sed", "ed":
			f.regexType = "bre"
		case "posix-extended", "posix-egrep", "egrep", "awk", "posix-awk", "gnu-awk":
			f.regexType = "ere"
		default:
			f.err = fmt.Errorf("Unknown regular expression type %s; valid types are 'findutils-default', 'ed', 'emacs', 'gnu-awk', 'grep', 'posix-awk', 'awk', 'posix-basic', 'posix-egrep', 'egrep', 'posix-extended', 'posix-minimal-basic', 'sed'.", quotearg.Quote(typ))
			return nil
		}
		return yes
	case "-true":
		return yes
	case "-false":
		return func(*fsFinder, *fsFindEnt) bool { return false }
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
		pat, ok := f.arg(name)
		if !ok {
			return nil
		}
		mode := pattern.EntireString | pattern.NoGlobStar
		if strings.HasPrefix(name, "-i") {
			mode |= pattern.NoGlobCase
		}
		match := cmdutil.Matcher(pat, mode)
		if strings.HasSuffix(name, "name") && !strings.HasSuffix(name, "wholename") {
			return func(f *fsFinder, e *fsFindEnt) bool { return match(fsFindBase(e.path)) }
		}
		return func(f *fsFinder, e *fsFindEnt) bool { return match(e.path) }
	case "-regex", "-iregex":
		pat, ok := f.arg(name)
		if !ok {
			return nil
		}
		var rx *regexp.Regexp
		if f.regexType != "" {
			// POSIX syntax through posixre; the match is of the whole path.
			o := posixre.Options{ERE: f.regexType == "ere", ICase: name == "-iregex"}
			body, err := posixre.Translate(pat, o)
			if err == nil {
				rx, err = posixre.CompileGo("^(?:"+body+")$", o)
			}
			if err != nil {
				f.err = fmt.Errorf("failed to compile regular expression %s: %s", quotearg.Quote(pat), err)
				return nil
			}
		} else {
			expr := "^(?:" + fsEmacsRegex(pat) + ")$"
			if name == "-iregex" {
				expr = "(?i)" + expr
			}
			var err error
			if rx, err = regexp.Compile(expr); err != nil {
				f.err = fmt.Errorf("invalid regular expression %s", quotearg.Quote(pat))
				return nil
			}
		}
		return func(f *fsFinder, e *fsFindEnt) bool { return rx.MatchString(e.path) }
	case "-type", "-xtype":
		a, ok := f.arg(name)
		if !ok {
			return nil
		}
		want := map[byte]bool{}
		for _, t := range strings.Split(a, ",") {
			if len(t) != 1 || strings.IndexByte("fdlpsbcD", t[0]) < 0 {
				f.err = fmt.Errorf("Unknown argument to %s: %s", name, t)
				return nil
			}
			want[t[0]] = true
		}
		xtype := name == "-xtype"
		return func(f *fsFinder, e *fsFindEnt) bool {
			fi := e.fi
			if xtype && posixfs.IsSymlink(fi) {
				if st, err := f.c.FS.Stat(e.abs); err == nil {
					fi = st
				}
			}
			return want[fileutil.TypeChar(fi)]
		}
	case "-size":
		a, ok := f.arg(name)
		if !ok {
			return nil
		}
		unit := int64(512)
		if a != "" {
			switch a[len(a)-1] {
			case 'c':
				unit = 1
			case 'w':
				unit = 2
			case 'b':
				unit = 512
			case 'k':
				unit = 1024
			case 'M':
				unit = 1 << 20
			case 'G':
				unit = 1 << 30
			}
			if strings.IndexByte("cwbkMG", a[len(a)-1]) >= 0 {
				a = a[:len(a)-1]
			}
		}
		op, n, ok := fsFindCmp(a)
		if !ok {
			f.err = fmt.Errorf("invalid -size type %s", quotearg.Quote(a))
			return nil
		}
		return func(f *fsFinder, e *fsFindEnt) bool {
			size := fileutil.ShownSize(e.fi)
			units := float64((size + unit - 1) / unit)
			return fsCmp(op, units, n)
		}
	case "-empty":
		return func(f *fsFinder, e *fsFindEnt) bool {
			if e.fi.IsDir() {
				list, err := posixfs.ReadDir(f.c.FS, e.abs)
				return err == nil && len(list) == 0
			}
			return e.fi.Mode().IsRegular() && e.fi.Size() == 0
		}
	case "-newer", "-anewer", "-cnewer":
		a, ok := f.arg(name)
		if !ok {
			return nil
		}
		ref, err := f.c.FS.Stat(f.c.Abs(a))
		if err != nil {
			f.err = fmt.Errorf("%s: %s", quotearg.Quote(a), posixfs.ErrText(err))
			return nil
		}
		t := ref.ModTime()
		return func(f *fsFinder, e *fsFindEnt) bool { return e.fi.ModTime().After(t) }
	case "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin":
		a, ok := f.arg(name)
		if !ok {
			return nil
		}
		op, n, ok := fsFindCmp(a)
		if !ok {
			f.err = fmt.Errorf("invalid argument %s to %s", quotearg.Quote(a), quotearg.Quote(name))
			return nil
		}
		unit := 24 * time.Hour
		if strings.HasSuffix(name, "min") {
			unit = time.Minute
		}
		return func(f *fsFinder, e *fsFindEnt) bool {
			age := f.now.Sub(e.fi.ModTime())
			units := math.Floor(float64(age) / float64(unit))
			if unit == time.Minute {
				units = math.Ceil(float64(age) / float64(unit))
			}
			return fsCmp(op, units, n)
		}
	case "-perm":
		a, ok := f.arg(name)
		if !ok {
			return nil
		}
		kind := byte('=')
		if a != "" && (a[0] == '-' || a[0] == '/' || a[0] == '+') {
			kind, a = a[0], a[1:]
		}
		want, ok := posixfs.ApplyMode(a, 0, false)
		if !ok {
			f.err = fmt.Errorf("invalid mode %s", quotearg.Quote(a))
			return nil
		}
		return func(f *fsFinder, e *fsFindEnt) bool {
			have := command.UnixMode(e.fi.Mode())
			switch kind {
			case '-':
				return have&want == want
			case '/', '+':
				return want == 0 || have&want != 0
			}
			return have == want
		}
	case "-user", "-group":
		a, ok := f.arg(name)
		if !ok {
			return nil
		}
		return func(_ *fsFinder, e *fsFindEnt) bool {
			owner, uid := fileutil.OwnerOf(e.fi)
			return a == owner || a == strconv.Itoa(uid)
		}
	case "-uid", "-gid":
		a, ok := f.arg(name)
		if !ok {
			return nil
		}
		op, n, ok := fsFindCmp(a)
		if !ok {
			f.err = fmt.Errorf("invalid argument %s to %s", quotearg.Quote(a), quotearg.Quote(name))
			return nil
		}
		return func(_ *fsFinder, e *fsFindEnt) bool {
			_, uid := fileutil.OwnerOf(e.fi)
			return fsCmp(op, float64(uid), n)
		}
	case "-nouser", "-nogroup":
		return func(*fsFinder, *fsFindEnt) bool { return false }
	case "-links":
		a, ok := f.arg(name)
		if !ok {
			return nil
		}
		op, n, ok := fsFindCmp(a)
		if !ok {
			f.err = fmt.Errorf("invalid argument %s to %s", quotearg.Quote(a), quotearg.Quote(name))
			return nil
		}
		return func(f *fsFinder, e *fsFindEnt) bool {
			return fsCmp(op, float64(fileutil.Links(f.c.FS, e.abs, e.fi)), n)
		}
	case "-readable", "-writable", "-executable":
		bit := map[string]fs.FileMode{"-readable": 0o400, "-writable": 0o200, "-executable": 0o100}[name]
		return func(f *fsFinder, e *fsFindEnt) bool { return e.fi.Mode().Perm()&bit != 0 }
	case "-print", "-print0", "-fprint":
		f.hasAction = true
		end := "\n"
		if name == "-print0" {
			end = "\x00"
		}
		return func(f *fsFinder, e *fsFindEnt) bool { f.print(e, end); return true }
	case "-printf":
		f.hasAction = true
		format, ok := f.arg(name)
		if !ok {
			return nil
		}
		return func(f *fsFinder, e *fsFindEnt) bool { f.w.WriteString(f.printf(format, e)); return true }
	case "-ls":
		f.hasAction = true
		return func(f *fsFinder, e *fsFindEnt) bool {
			name := e.path
			if posixfs.IsSymlink(e.fi) {
				name += " -> " + fileutil.LinkTarget(f.c.FS, e.abs)
			}
			owner, _ := fileutil.OwnerOf(e.fi)
			fmt.Fprintf(f.w, "%9d %6d %s %3d %-8s %-8s %8d %s %s\n", 0, fileutil.Blocks(e.fi), fileutil.ModeString(e.fi.Mode()),
				fileutil.Links(f.c.FS, e.abs, e.fi), owner, owner, fileutil.ShownSize(e.fi),
				fileutil.LsDate(e.fi.ModTime(), f.now, f.loc), name)
			return true
		}
	case "-delete":
		f.hasAction = true
		f.depthFst = true
		return func(f *fsFinder, e *fsFindEnt) bool {
			if e.path == "." || e.abs == "/" {
				return true
			}
			if err := f.c.FS.Remove(e.abs); err != nil {
				f.w.Flush()
				posixfs.Warn(f.c, "find", "cannot delete %s: %s", quotearg.Quote(e.path), posixfs.ErrText(err))
				f.status = 1
				return false
			}
			return true
		}
	case "-prune":
		return func(f *fsFinder, e *fsFindEnt) bool { f.prune = true; return true }
	case "-quit":
		return func(f *fsFinder, e *fsFindEnt) bool { f.quit = true; return true }
	case "-exec", "-execdir", "-ok", "-okdir":
		f.hasAction = true
		return f.parseExec(name)
	}
	if strings.HasPrefix(name, "-") {
		f.err = fmt.Errorf("unknown predicate %s", quotearg.Quote(name))
	} else {
		f.err = fmt.Errorf("paths must precede expression: %s", quotearg.Quote(name))
	}
	return nil
}

// fsFindBase is the last element of a printed path ("src/" -> "src").
func fsFindBase(p string) string {
	t := strings.TrimRight(p, "/")
	if t == "" {
		return "/"
	}
	return path.Base(t)
}

// fsEmacsRegex turns find's default (emacs) regex syntax into Go's: \( \)
// \| \{ \} are the operators, bare ( ) | { } literals.
func fsEmacsRegex(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\' && i+1 < len(s) && strings.IndexByte("()|{}", s[i+1]) >= 0:
			b.WriteByte(s[i+1])
			i++
		case ch == '\\' && i+1 < len(s):
			b.WriteByte(ch)
			b.WriteByte(s[i+1])
			i++
		case strings.IndexByte("()|{}", ch) >= 0:
			b.WriteByte('\\')
			b.WriteByte(ch)
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// parseExec parses -exec's command, up to ";" or "{} +".
func (f *fsFinder) parseExec(name string) fsFindNode {
	var cmd []string
	plus := false
	for {
		if f.pos >= len(f.args) {
			f.err = fmt.Errorf("missing argument to %s", quotearg.Quote(name))
			return nil
		}
		a := f.args[f.pos]
		f.pos++
		if a == ";" {
			break
		}
		if a == "+" && len(cmd) > 0 && cmd[len(cmd)-1] == "{}" {
			plus = true
			cmd = cmd[:len(cmd)-1]
			break
		}
		cmd = append(cmd, a)
	}
	if len(cmd) == 0 {
		f.err = fmt.Errorf("missing argument to %s", quotearg.Quote(name))
		return nil
	}
	inDir := strings.HasSuffix(name, "dir")
	if plus {
		if strings.HasPrefix(name, "-ok") {
			f.err = fmt.Errorf("%s only supports the ';' terminator", name)
			return nil
		}
		byDir := map[string]*fsFindBatch{}
		return func(f *fsFinder, e *fsFindEnt) bool {
			dir, arg := "", e.path
			if inDir {
				dir, arg = path.Dir(e.abs), "./"+path.Base(e.abs)
			}
			b := byDir[dir]
			if b == nil {
				b = &fsFindBatch{cmd: cmd, dir: dir}
				byDir[dir] = b
				f.batches = append(f.batches, b)
			}
			b.args = append(b.args, arg)
			b.size += len(arg) + 1
			if len(b.args) >= 4096 || b.size >= 128<<10 {
				f.flush(b)
			}
			return true
		}
	}
	return func(f *fsFinder, e *fsFindEnt) bool {
		arg, dir := e.path, ""
		if inDir {
			dir, arg = path.Dir(e.abs), "./"+path.Base(e.abs)
		}
		argv := make([]string, len(cmd))
		for i, a := range cmd {
			argv[i] = strings.ReplaceAll(a, "{}", arg)
		}
		return f.run(argv, dir) == nil
	}
}

// run runs a command of -exec (in dir for -execdir); a command found
// nowhere is reported and counts as failure (of the test for ";", of find
// for "+").
func (f *fsFinder) run(argv []string, dir string) error {
	f.w.Flush()
	c := f.c
	if dir != "" {
		old := c.Dir
		c.Dir = dir
		defer func() { c.Dir = old }()
	}
	err := c.Exec(f.ctx, argv)
	if errors.Is(err, command.ErrNotFound) {
		posixfs.Warn(c, "find", "%s: No such file or directory", quotearg.Quote(argv[0]))
	}
	return err
}

func (f *fsFinder) flush(b *fsFindBatch) {
	if len(b.args) == 0 {
		return
	}
	argv := append(append([]string{}, b.cmd...), b.args...)
	b.args, b.size = nil, 0
	if f.ctx.Err() != nil {
		return
	}
	if err := f.run(argv, b.dir); err != nil {
		f.status = 1
	}
}

func (f *fsFinder) flushAll() {
	for _, b := range f.batches {
		f.flush(b)
	}
}

// printf expands -printf's directives and escapes for e.
func (f *fsFinder) printf(format string, e *fsFindEnt) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		ch := format[i]
		if ch == '\\' && i+1 < len(format) {
			if format[i+1] == 'c' {
				return b.String()
			}
			j := i + 2
			if format[i+1] >= '0' && format[i+1] <= '7' {
				for j < len(format) && j < i+4 && format[j] >= '0' && format[j] <= '7' {
					j++
				}
			}
			b.WriteString(fileutil.Escapes(format[i:j]))
			i = j - 1
			continue
		}
		if ch != '%' || i+1 >= len(format) {
			b.WriteByte(ch)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
			j++
		}
		for j < len(format) && (format[j] >= '0' && format[j] <= '9' || format[j] == '.') {
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		spec := format[i+1 : j]
		verb := format[j]
		var val string
		switch verb {
		case '%':
			b.WriteByte('%')
			i = j
			continue
		case 'A', 'C', 'T':
			if j+1 >= len(format) {
				b.WriteString(format[i:])
				i = len(format)
				continue
			}
			j++
			val = fsFindTime(format[j], e.fi.ModTime().In(f.loc))
		default:
			val = f.printfValue(verb, e)
		}
		b.WriteString(fileutil.FormatField(spec, val, false))
		i = j
	}
	return b.String()
}

func (f *fsFinder) printfValue(verb byte, e *fsFindEnt) string {
	fi := e.fi
	switch verb {
	case 'p':
		return e.path
	case 'f':
		return fsFindBase(e.path)
	case 'h':
		p := strings.TrimRight(e.path, "/")
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			if i == 0 {
				return "/"
			}
			return p[:i]
		}
		return "."
	case 'P':
		return strings.TrimPrefix(strings.TrimPrefix(e.path, e.start), "/")
	case 'H':
		return e.start
	case 's':
		return strconv.FormatInt(fileutil.ShownSize(fi), 10)
	case 'k':
		return strconv.FormatInt(fileutil.Blocks(fi), 10)
	case 'b':
		return strconv.FormatInt(fileutil.Blocks(fi)*2, 10)
	case 'd':
		return strconv.Itoa(e.depth)
	case 'm':
		return strconv.FormatUint(uint64(command.UnixMode(fi.Mode())), 8)
	case 'M':
		return fileutil.ModeString(fi.Mode())
	case 'y':
		return string(fileutil.TypeChar(fi))
	case 'Y':
		if posixfs.IsSymlink(fi) {
			if st, err := f.c.FS.Stat(e.abs); err == nil {
				return string(fileutil.TypeChar(st))
			}
			return "N"
		}
		return string(fileutil.TypeChar(fi))
	case 'u', 'g':
		owner, _ := fileutil.OwnerOf(fi)
		return owner
	case 'U', 'G':
		_, uid := fileutil.OwnerOf(fi)
		return strconv.Itoa(uid)
	case 'n':
		return strconv.Itoa(fileutil.Links(f.c.FS, e.abs, fi))
	case 'i', 'D':
		return "0"
	case 'l':
		if posixfs.IsSymlink(fi) {
			return fileutil.LinkTarget(f.c.FS, e.abs)
		}
		return ""
	case 'a', 'c', 't':
		t := fi.ModTime().In(f.loc)
		return t.Format("Mon Jan _2 15:04:05") + fmt.Sprintf(".%010d ", t.Nanosecond()*10) + t.Format("2006")
	case 'F':
		return "tmpfs"
	case 'S':
		return "1"
	}
	return "%" + string(verb)
}

// fsFindTime is -printf's %Tk (and %Ak, %Ck): @ for seconds since the
// epoch, + for date+time, else strftime's %k.
func fsFindTime(k byte, t time.Time) string {
	switch k {
	case '@':
		return fmt.Sprintf("%d.%010d", t.Unix(), t.Nanosecond()*10)
	case '+':
		return t.Format("2006-01-02+15:04:05") + fmt.Sprintf(".%010d", t.Nanosecond()*10)
	case 'T':
		return t.Format("15:04:05") + fmt.Sprintf(".%010d", t.Nanosecond()*10)
	case 'S':
		return t.Format("05") + fmt.Sprintf(".%010d", t.Nanosecond()*10)
	}
	return fileutil.Strftime("%"+string(k), t)
}
