package bash

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/glob"
	"github.com/agentenkit/agentenkit/shell/bash/printf"
	"github.com/agentenkit/agentenkit/shell/command"
)

// seg is a piece of a field being expanded: its text, whether it was
// quoted (no splitting, no globbing) and whether it came from an
// unquoted expansion (split by IFS).
type seg struct {
	s      string
	quoted bool
	split  bool
}

// field is a word being built from segments; real is false while nothing
// contributed to it (so that "$@" with no parameters gives no word).
type field struct {
	segs []seg
	real bool
}

// wexp accumulates the fields of one word.
type wexp struct {
	fields []*field
}

func (e *wexp) cur() *field {
	if len(e.fields) == 0 {
		e.fields = append(e.fields, &field{})
	}
	return e.fields[len(e.fields)-1]
}

func (e *wexp) add(s seg) {
	f := e.cur()
	f.segs = append(f.segs, s)
	f.real = true
}

// joined is the fields' text joined by spaces (no splitting).
func (e *wexp) joined() string {
	var parts []string
	for _, f := range e.fields {
		var b strings.Builder
		for _, s := range f.segs {
			b.WriteString(s.s)
		}
		parts = append(parts, b.String())
	}
	return strings.Join(parts, " ")
}

func (e *wexp) brk() { e.fields = append(e.fields, &field{}) }

// fields expands words into fields: braces, parameters, commands,
// arithmetic, splitting, globbing, quote removal.
func (r *Runner) fields(words ...*syntax.Word) ([]string, error) {
	var out []string
	for _, w0 := range words {
		for _, w := range glob.Braces(w0) {
			var e wexp
			if err := r.wordParts(&e, w.Parts, false, true); err != nil {
				return nil, err
			}
			for _, f := range e.fields {
				if !f.real {
					continue
				}
				for _, sf := range r.splitField(f) {
					g, err := r.globField(sf)
					if err != nil {
						return nil, err
					}
					out = append(out, g...)
				}
			}
		}
	}
	return out, nil
}

// literal expands a word into one string, without splitting or globbing
// (redirection targets, case words, [[ ]] operands).
func (r *Runner) literal(w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	var e wexp
	if err := r.wordParts(&e, w.Parts, false, true); err != nil {
		return "", err
	}
	return e.joined(), nil
}

// assignValue expands the value of an assignment: no splitting, no
// globbing, tildes after = and :.
func (r *Runner) assignValue(w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	var e wexp
	if err := r.wordPartsAssign(&e, w.Parts); err != nil {
		return "", err
	}
	return e.joined(), nil
}

func (r *Runner) wordPartsAssign(e *wexp, parts []syntax.WordPart) error {
	for i, p := range parts {
		if l, ok := p.(*syntax.Lit); ok {
			v := l.Value
			if i == 0 || true {
				v = r.tildeAssign(v, i == 0)
			}
			r.litSegs(e, v, false)
			continue
		}
		if err := r.wordParts(e, []syntax.WordPart{p}, false, false); err != nil {
			return err
		}
	}
	return nil
}

// tildeAssign expands ~ at the start and after each ':' of an
// assignment's value.
func (r *Runner) tildeAssign(v string, start bool) string {
	var b strings.Builder
	for i, part := range strings.Split(v, ":") {
		if i > 0 {
			b.WriteByte(':')
		}
		if i > 0 || start {
			part = r.tilde(part)
		}
		b.WriteString(part)
	}
	return b.String()
}

// tilde expands a leading ~ of an unquoted literal.
func (r *Runner) tilde(s string) string {
	if !strings.HasPrefix(s, "~") {
		return s
	}
	user, rest, _ := strings.Cut(s[1:], "/")
	if strings.Contains(s, "/") {
		rest = "/" + rest
	}
	var home string
	switch user {
	case "":
		h, ok := r.getVar("HOME")
		if !ok {
			return s
		}
		home = h
	case "+":
		home, _ = r.getVar("PWD")
	case "-":
		h, ok := r.getVar("OLDPWD")
		if !ok {
			return s
		}
		home = h
	case "root": // the sandbox's users: root and user (uid 1000)
		home = "/root"
	case "user":
		home = "/home/user"
	default:
		return s
	}
	return home + rest
}

// pattern expands a word into a shell pattern: quoted characters are
// escaped.
func (r *Runner) pattern(w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	var e wexp
	if err := r.wordParts(&e, w.Parts, false, true); err != nil {
		return "", err
	}
	var b strings.Builder
	for i, f := range e.fields {
		if i > 0 {
			b.WriteByte(' ')
		}
		for _, s := range f.segs {
			if s.quoted {
				b.WriteString(quotePattern(s.s))
			} else {
				b.WriteString(s.s)
			}
		}
	}
	return b.String(), nil
}

func quotePattern(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[]\()|!+@{}`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// hdocExpand expands a here-document body: parameters, commands and
// arithmetic; backslash escapes only $ ` \ and newline.
func (r *Runner) hdocExpand(w *syntax.Word) (string, error) {
	var b strings.Builder
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(unescapeDq(l.Value, true))
			continue
		}
		var e wexp
		if err := r.wordParts(&e, []syntax.WordPart{p}, true, false); err != nil {
			return "", err
		}
		for i, f := range e.fields {
			if i > 0 {
				b.WriteByte(' ')
			}
			for _, s := range f.segs {
				b.WriteString(s.s)
			}
		}
	}
	return b.String(), nil
}

// unescapeDq removes the backslashes that escape $ ` " \ and newline
// inside double quotes (not " in a here-document).
func unescapeDq(s string, hdoc bool) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			n := s[i+1]
			switch {
			case n == '$' || n == '`' || n == '\\' || (n == '"' && !hdoc):
				b.WriteByte(n)
				i++
				continue
			case n == '\n':
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// litSegs adds an unquoted literal: backslash-escaped characters become
// quoted segments.
func (r *Runner) litSegs(e *wexp, v string, _ bool) {
	if !strings.Contains(v, "\\") {
		e.add(seg{s: v})
		return
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' && i+1 < len(v) {
			if v[i+1] == '\n' {
				i++
				continue
			}
			if b.Len() > 0 {
				e.add(seg{s: b.String()})
				b.Reset()
			}
			_, n := utf8.DecodeRuneInString(v[i+1:])
			e.add(seg{s: v[i+1 : i+1+n], quoted: true})
			i += n
			continue
		}
		b.WriteByte(c)
	}
	if b.Len() > 0 || len(v) == 0 {
		e.add(seg{s: b.String()})
	}
}

// wordParts expands parts into e. dq: inside double quotes. first: the
// parts start a word (tilde expansion applies).
func (r *Runner) wordParts(e *wexp, parts []syntax.WordPart, dq, first bool) error {
	for i, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if dq {
				e.add(seg{s: unescapeDq(p.Value, false), quoted: true})
				continue
			}
			v := p.Value
			if i == 0 && first && strings.HasPrefix(v, "~") {
				t := r.tilde(v)
				if t != v {
					// The expansion is not split or globbed.
					user, _, _ := strings.Cut(v, "/")
					home := r.tilde(user)
					e.add(seg{s: home, quoted: true})
					r.litSegs(e, v[len(user):], false)
					continue
				}
			}
			r.litSegs(e, v, false)
		case *syntax.SglQuoted:
			v := p.Value
			if p.Dollar {
				v = ansiC(v)
			} else if dq {
				// Only in the word of "${x:-'a'}": the quotes stay.
				v = "'" + v + "'"
			}
			e.add(seg{s: v, quoted: true})
		case *syntax.DblQuoted:
			if len(p.Parts) == 0 {
				e.add(seg{quoted: true})
				continue
			}
			e.cur().real = true
			if err := r.wordParts(e, p.Parts, true, false); err != nil {
				return err
			}
		case *syntax.ParamExp:
			if err := r.paramExp(e, p, dq); err != nil {
				return err
			}
		case *syntax.CmdSubst:
			if p.TempFile || p.ReplyVar {
				return r.kshSubstErr(p)
			}
			out, err := r.cmdSubst(p.Stmts)
			if err != nil {
				return err
			}
			e.add(seg{s: out, quoted: dq, split: !dq})
		case *syntax.ArithmExp:
			n, err := r.arith(p.X)
			if err != nil {
				return r.arithContext(err, "", true)
			}
			e.add(seg{s: strconv.FormatInt(n, 10), quoted: dq, split: !dq})
		case *syntax.ExtGlob:
			if err := r.extGlobParts(e, p, dq); err != nil {
				return err
			}
		case *syntax.ProcSubst:
			name, err := r.procSubst(p)
			if err != nil {
				return err
			}
			e.add(seg{s: name, quoted: true})
		case *syntax.BraceExp:
			// Left over when braces did not expand (inside quotes).
			e.add(seg{s: printNode(&syntax.Word{Parts: []syntax.WordPart{p}}), quoted: dq})
		default:
			return &shError{msg: fmt.Sprintf("%T: unsupported word part", p), status: 1}
		}
	}
	return nil
}

// cmdSubst runs stmts in a subshell and returns their output without
// trailing newlines.
func (r *Runner) cmdSubst(stmts []*syntax.Stmt) (string, error) {
	if len(stmts) == 1 && stmts[0].Cmd == nil && len(stmts[0].Redirs) == 1 && stmts[0].Redirs[0].Op == syntax.RdrIn && stmts[0].Redirs[0].N == nil {
		// $(<file) is the file's content.
		name, err := r.literal(stmts[0].Redirs[0].Word)
		if err != nil {
			return "", err
		}
		data, err := readFile(r, r.abs(name))
		if err != nil {
			r.errf("%s: %s", name, errText(err))
			r.lastSubStatus, r.status = 1, 1
			return "", nil
		}
		r.lastSubStatus, r.status = 0, 0
		return strings.TrimRight(data, "\n"), nil
	}
	var buf bytes.Buffer
	s := r.subshellCopy()
	s.shownJobs = r.visibleJobs()
	s.fds = cloneMap(r.fds)
	s.fds[1] = &fdesc{w: &lockedWriter{w: command.CtxWriter{Ctx: r.ctx, W: substBuffer{&buf}}}, name: "cmdsubst"}
	code := s.runSub(func(s *Runner) { s.runStmts(stmts) })
	r.lastSubStatus = code
	r.status = code
	if r.ctx.Err() != nil {
		return "", &shError{status: 124}
	}
	out := buf.String()
	if strings.IndexByte(out, 0) >= 0 {
		r.errf("warning: command substitution: ignored null byte in input")
		out = strings.ReplaceAll(out, "\x00", "")
	}
	return strings.TrimRight(out, "\n"), nil
}

// maxSubstBytes caps what one command substitution keeps. bash grows its
// buffer until memory runs out; here the writer past the cap fails as a
// write to a full device does (ENOMEM), so `x=$(yes)` ends with an error
// instead of taking the host's memory.
const maxSubstBytes = 256 << 20

// substBuffer keeps a command substitution's output, at most
// maxSubstBytes of it.
type substBuffer struct{ buf *bytes.Buffer }

func (w substBuffer) Write(p []byte) (int, error) {
	if room := maxSubstBytes - w.buf.Len(); len(p) > room {
		n, _ := w.buf.Write(p[:max(room, 0)])
		return n, syscall.ENOMEM
	}
	return w.buf.Write(p)
}

// procSubst runs <(cmd) into a temporary file of the FS and returns its
// name. >(cmd) returns the name of an empty temporary file; cmd runs when
// the statement that expanded it ends, with the file as its input and
// the file descriptors of that moment (the shell has no concurrent pipe
// for it: cmd sees all the output at once).
func (r *Runner) procSubst(p *syntax.ProcSubst) (string, error) {
	_ = r.fs.MkdirAll("/tmp", 0o777)
	r.shared.mu.Lock()
	r.shared.nextID++
	name := fmt.Sprintf("/tmp/.sh-procsubst-%d-%d", r.shared.rootPID, r.shared.nextID)
	r.shared.temps = append(r.shared.temps, name)
	r.shared.mu.Unlock()
	f, err := r.fs.Create(name)
	if err != nil {
		return "", &shError{msg: name + ": " + errText(err), status: 1, noExit: true}
	}
	if p.Op != syntax.CmdIn {
		f.Close()
		fds := cloneMap(r.fds)
		r.procOut = append(r.procOut, func() {
			in, err := r.fs.Open(name)
			if err != nil {
				r.errf("%s: %s", name, errText(err))
				return
			}
			defer in.Close()
			s := r.subshellCopy()
			s.fds = cloneMap(fds)
			s.fds[0] = &fdesc{r: in, f: in, name: name}
			s.runSub(func(s *Runner) { s.runStmts(p.Stmts) })
		})
		return name, nil
	}
	defer f.Close()
	if st := p.Stmts; len(st) == 1 && st[0].Cmd == nil && len(st[0].Redirs) == 1 && st[0].Redirs[0].Op == syntax.RdrIn && st[0].Redirs[0].N == nil {
		// <(<file) is the file's content, as $(<file) is
		src, err := r.literal(st[0].Redirs[0].Word)
		if err != nil {
			return "", err
		}
		data, err := readFile(r, r.abs(src))
		if err != nil {
			r.errf("%s: %s", src, errText(err))
			return name, nil
		}
		_, _ = f.Write([]byte(data))
		return name, nil
	}
	s := r.subshellCopy()
	s.fds = cloneMap(r.fds)
	s.fds[1] = &fdesc{w: f, f: f, name: name}
	s.runSub(func(s *Runner) { s.runStmts(p.Stmts) })
	return name, nil
}

// runProcOut runs the >(cmd) registered since the first n; the status
// stays the statement's.
func (r *Runner) runProcOut(n int) {
	if len(r.procOut) <= n {
		return
	}
	pending := r.procOut[n:]
	r.procOut = r.procOut[:n]
	status := r.status
	for _, run := range pending {
		run()
	}
	r.status = status
}

// ifs is $IFS (" \t\n" when unset).
func (r *Runner) ifs() string {
	v, ok := r.getVar("IFS")
	if !ok {
		return " \t\n"
	}
	return v
}

// splitField splits a field's unquoted expansion results by IFS.
func (r *Runner) splitField(f *field) [][]seg {
	if emptyExpansion(f.segs) {
		return nil
	}
	needs := false
	for _, s := range f.segs {
		if s.split && s.s != "" {
			needs = true
			break
		}
	}
	ifs := r.ifs()
	if !needs || ifs == "" {
		return [][]seg{f.segs}
	}
	var out [][]seg
	var cur []seg
	has := false       // cur has content (even an empty quoted string)
	justEnded := false // a field just ended at IFS whitespace
	emit := func() {
		out = append(out, cur)
		cur, has = nil, false
	}
	for _, s := range f.segs {
		if !s.split {
			cur = append(cur, s)
			has = true
			justEnded = false
			continue
		}
		var b strings.Builder
		flush := func() {
			if b.Len() > 0 {
				cur = append(cur, seg{s: b.String(), split: true})
				b.Reset()
			}
		}
		for _, c := range s.s {
			if !strings.ContainsRune(ifs, c) {
				b.WriteRune(c)
				has = true
				justEnded = false
				continue
			}
			flush()
			if c == ' ' || c == '\t' || c == '\n' {
				if has {
					emit()
					justEnded = true
				}
				continue
			}
			switch {
			case has:
				emit()
				justEnded = false
			case justEnded:
				justEnded = false
			default:
				emit()
			}
		}
		flush()
	}
	if has {
		emit()
	}
	return out
}

// emptyExpansion reports a field made only of empty unquoted
// expansions: it is removed.
func emptyExpansion(segs []seg) bool {
	for _, s := range segs {
		if !s.split || s.s != "" {
			return false
		}
	}
	return true
}

// globField expands a split field as a pathname pattern when it has
// unquoted pattern characters; else it is the field's text.
func (r *Runner) globField(segs []seg) ([]string, error) {
	// Most fields have no pattern character at all: no pattern to build.
	maybe := false
	for _, s := range segs {
		if !s.quoted && strings.ContainsAny(s.s, "*?[(") {
			maybe = true
			break
		}
	}
	if !maybe || r.opt["noglob"] {
		if len(segs) == 1 {
			return []string{segs[0].s}, nil
		}
		var text strings.Builder
		for _, s := range segs {
			text.WriteString(s.s)
		}
		return []string{text.String()}, nil
	}
	var text, pat strings.Builder
	meta := false
	for _, s := range segs {
		text.WriteString(s.s)
		if s.quoted {
			pat.WriteString(quotePattern(s.s))
			continue
		}
		pat.WriteString(s.s)
	}
	// Characters a backslash escapes are not pattern characters (an
	// expansion's x='a\*b' stays a\*b); a bracket may open in one part
	// and close in another ([$x]).
	if !r.opt["noglob"] && glob.HasMeta(pat.String(), r.shopt["extglob"]) {
		meta = true
	}
	if !meta {
		return []string{text.String()}, nil
	}
	matches := r.globber().Glob(pat.String())
	if gi, ok := r.getVar("GLOBIGNORE"); ok && gi != "" {
		kept := matches[:0]
		for _, m := range matches {
			base := m[strings.LastIndex(m, "/")+1:]
			if base == "." || base == ".." {
				continue
			}
			ignored := false
			for _, p := range splitGlobIgnore(gi) {
				if p != "" && r.matchPath(p, m) {
					ignored = true
					break
				}
			}
			if !ignored {
				kept = append(kept, m)
			}
		}
		matches = kept
	}
	if len(matches) == 0 {
		if r.shopt["failglob"] {
			return nil, &shError{msg: "no match: " + text.String(), status: 1, abort: true}
		}
		if r.shopt["nullglob"] {
			return nil, nil
		}
		// An unmatched pattern is left as it was, backslashes and all.
		return []string{text.String()}, nil
	}
	return matches, nil
}

// splitGlobIgnore splits GLOBIGNORE at the colons outside bracket
// expressions ([[:alnum:]]* is one pattern).
func splitGlobIgnore(s string) []string {
	var out []string
	start, depth := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			depth++
		case ']':
			if depth > 0 {
				depth--
			}
		case ':':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func (r *Runner) readDir(dir string) ([]fs.DirEntry, error) {
	f, err := r.fs.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	infos, err := f.Readdir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]fs.DirEntry, len(infos))
	for i, fi := range infos {
		out[i] = fs.FileInfoToDirEntry(fi)
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

type lstater interface {
	LstatIfPossible(name string) (fs.FileInfo, bool, error)
}

func (r *Runner) lstat(name string) (fs.FileInfo, error) {
	if l, ok := r.fs.(lstater); ok {
		fi, _, err := l.LstatIfPossible(name)
		return fi, err
	}
	return r.fs.Stat(name)
}

// ansiC decodes the escapes of $'...'.
func ansiC(s string) string {
	out, _ := printf.DecodeEscapes(s, false)
	// A string ends at a NUL byte, as in C.
	if i := strings.IndexByte(out, 0); i >= 0 {
		out = out[:i]
	}
	return out
}

// extGlobParts adds an extended glob @(a|b) whose alternatives are
// expanded as words are: parameters and command substitutions, quotes
// (what they quote matches literally), nested extended globs. The parser
// keeps the text between the parentheses as it is.
func (r *Runner) extGlobParts(e *wexp, p *syntax.ExtGlob, dq bool) error {
	e.add(seg{s: p.Op.String(), quoted: dq})
	for i, alt := range glob.SplitExtGlobAlts(p.Pattern.Value) {
		if i > 0 {
			e.add(seg{s: "|", quoted: dq})
		}
		if alt == "" {
			continue
		}
		var w *syntax.Word
		if f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("_ "+alt), ""); err == nil && len(f.Stmts) == 1 {
			if ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(ce.Args) == 2 && len(f.Stmts[0].Redirs) == 0 && !f.Stmts[0].Background {
				w = ce.Args[1]
			}
		}
		if w == nil {
			e.add(seg{s: alt, quoted: dq})
			continue
		}
		for _, part := range w.Parts {
			switch part := part.(type) {
			case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp:
				// Not split: the pattern stays one word.
				if err := r.wordParts(e, []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{part}}}, dq, false); err != nil {
					return err
				}
				// What an expansion gives is still a pattern.
				if f := e.cur(); len(f.segs) > 0 && !dq {
					f.segs[len(f.segs)-1].quoted = false
				}
			default:
				if err := r.wordParts(e, []syntax.WordPart{part}, dq, false); err != nil {
					return err
				}
			}
		}
	}
	e.add(seg{s: ")", quoted: dq})
	return nil
}
