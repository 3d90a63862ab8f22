package bash

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/expand"
	"github.com/agentenkit/agentenkit/shell/bash/glob"
	"github.com/agentenkit/agentenkit/shell/bash/redir"
	"github.com/agentenkit/agentenkit/shell/command"
)

// fields expands words into fields: braces, parameters, commands,
// arithmetic, splitting, globbing, quote removal.
func (r *Runner) fields(words ...*syntax.Word) ([]string, error) {
	out := make([]string, 0, len(words))
	for _, w0 := range words {
		if v, ok := r.plainField(w0); ok {
			out = append(out, v)
			continue
		}
		if !hasBraces(w0) {
			var err error
			if out, err = r.wordFields(out, w0); err != nil {
				return nil, err
			}
			continue
		}
		for _, w := range glob.Braces(w0) {
			var err error
			if out, err = r.wordFields(out, w); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// wordFields appends the fields of w, a word without braces to expand:
// parameters, commands, arithmetic, splitting, globbing, quote removal.
func (r *Runner) wordFields(out []string, w *syntax.Word) ([]string, error) {
	var e expand.Word
	if err := r.wordParts(&e, w.Parts, false, true); err != nil {
		return nil, err
	}
	for _, f := range e.Fields {
		if !f.Real {
			continue
		}
		if segs, ok := expand.Whole(f, r.ifs); ok {
			if segs == nil {
				continue
			}
			var err error
			if out, err = r.globField(out, segs); err != nil {
				return nil, err
			}
			continue
		}
		for _, sf := range expand.Split(f, r.ifs()) {
			var err error
			if out, err = r.globField(out, sf); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// hasBraces reports a brace expansion among w's parts.
func hasBraces(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if _, ok := p.(*syntax.BraceExp); ok {
			return true
		}
	}
	return false
}

// plainField is the one field of a word that is a single unquoted
// literal with nothing to expand (no backslash, no leading tilde, no
// pattern that globbing would expand): the literal itself, as the whole
// expansion would give it.
func (r *Runner) plainField(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return "", false
	}
	v := l.Value
	if v == "" || v[0] == '~' || strings.IndexByte(v, '\\') >= 0 {
		return "", false
	}
	if strings.ContainsAny(v, "*?[(") && glob.HasMeta(v, strings.IndexByte(v, '(') >= 0 && r.shopt["extglob"]) && !r.opt["noglob"] {
		return "", false
	}
	return v, true
}

// literal expands a word into one string, without splitting or globbing
// (redirection targets, case words, [[ ]] operands).
func (r *Runner) literal(w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	var e expand.Word
	if err := r.wordParts(&e, w.Parts, false, true); err != nil {
		return "", err
	}
	return e.Joined(), nil
}

// assignValue expands the value of an assignment: no splitting, no
// globbing, tildes after = and :.
func (r *Runner) assignValue(w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	var e expand.Word
	if err := r.wordPartsAssign(&e, w.Parts); err != nil {
		return "", err
	}
	return e.Joined(), nil
}

// assocValue is the value of an associative array literal's [k]=v:
// expanded as an assignment's, without tilde expansion (bash 5.2 does
// none there, ~ stays).
func (r *Runner) assocValue(w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	var e expand.Word
	if err := r.wordPartsAssignTilde(&e, w.Parts, false); err != nil {
		return "", err
	}
	return e.Joined(), nil
}

func (r *Runner) wordPartsAssign(e *expand.Word, parts []syntax.WordPart) error {
	return r.wordPartsAssignTilde(e, parts, true)
}

func (r *Runner) wordPartsAssignTilde(e *expand.Word, parts []syntax.WordPart, tilde bool) error {
	for i, p := range parts {
		if l, ok := p.(*syntax.Lit); ok {
			v := l.Value
			if tilde {
				v = expand.TildeAssign(v, i == 0, r.getVar)
			}
			e.AddLit(v)
			continue
		}
		if err := r.wordParts(e, []syntax.WordPart{p}, false, false); err != nil {
			return err
		}
	}
	return nil
}

// pattern expands a word into a shell pattern: quoted characters are
// escaped.
func (r *Runner) pattern(w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	var e expand.Word
	if err := r.wordParts(&e, w.Parts, false, true); err != nil {
		return "", err
	}
	return e.Text(" ", expand.QuotePattern), nil
}

// hdocExpand expands a here-document body: parameters, commands and
// arithmetic; backslash escapes only $ ` \ and newline.
func (r *Runner) hdocExpand(w *syntax.Word) (string, error) {
	var b strings.Builder
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(expand.UnescapeDq(l.Value, true))
			continue
		}
		var e expand.Word
		if err := r.wordParts(&e, []syntax.WordPart{p}, true, false); err != nil {
			return "", err
		}
		b.WriteString(e.Joined())
	}
	return b.String(), nil
}

// wordParts expands parts into e. dq: inside double quotes. first: the
// parts start a word (tilde expansion applies).
func (r *Runner) wordParts(e *expand.Word, parts []syntax.WordPart, dq, first bool) error {
	for i, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if dq {
				e.Add(expand.Seg{S: expand.UnescapeDq(p.Value, false), Quoted: true})
				continue
			}
			v := p.Value
			if i == 0 && first && strings.HasPrefix(v, "~") {
				t := expand.Tilde(v, r.getVar)
				if t != v {
					// The expansion is not split or globbed.
					user, _, _ := strings.Cut(v, "/")
					home := expand.Tilde(user, r.getVar)
					e.Add(expand.Seg{S: home, Quoted: true})
					e.AddLit(v[len(user):])
					continue
				}
			}
			e.AddLit(v)
		case *syntax.SglQuoted:
			v := p.Value
			if p.Dollar {
				v = expand.ANSIC(v)
			} else if dq {
				// Only in the word of "${x:-'a'}": the quotes stay.
				v = "'" + v + "'"
			}
			e.Add(expand.Seg{S: v, Quoted: true})
		case *syntax.DblQuoted:
			if len(p.Parts) == 0 {
				e.Add(expand.Seg{Quoted: true})
				continue
			}
			e.Cur().Real = true
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
			e.Add(expand.Seg{S: out, Quoted: dq, Split: !dq})
		case *syntax.ArithmExp:
			n, err := r.arith(p.X)
			if err != nil {
				return r.arithContext(err, "", true)
			}
			e.Add(expand.Seg{S: strconv.FormatInt(n, 10), Quoted: dq, Split: !dq})
		case *syntax.ExtGlob:
			if err := r.extGlobParts(e, p, dq); err != nil {
				return err
			}
		case *syntax.ProcSubst:
			name, err := r.procSubst(p)
			if err != nil {
				return err
			}
			e.Add(expand.Seg{S: name, Quoted: true})
		case *syntax.BraceExp:
			// Left over when braces did not expand (inside quotes).
			e.Add(expand.Seg{S: printNode(&syntax.Word{Parts: []syntax.WordPart{p}}), Quoted: dq})
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
			r.errf("%s: %s", name, redir.ErrText(err))
			r.lastSubStatus, r.status = 1, 1
			return "", nil
		}
		r.lastSubStatus, r.status = 0, 0
		return strings.TrimRight(data, "\n"), nil
	}
	var buf bytes.Buffer
	s := r.subshellFork()
	s.shownJobs = r.visibleJobs()
	s.fds.Set(1, &redir.FD{W: &lockedWriter{w: command.CtxWriter{Ctx: r.ctx, W: expand.SubstBuffer{Buf: &buf}}}, Name: "cmdsubst"})
	if len(stmts) == 1 {
		r.execChild(s, stmts[0])
	}
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

// procSubst runs <(cmd) into a temporary file of the FS and returns its
// name. >(cmd) returns the name of an empty temporary file; cmd runs when
// the statement that expanded it ends, with the file as its input and
// the file descriptors of that moment (the shell has no concurrent pipe
// for it: cmd sees all the output at once).
func (r *Runner) procSubst(p *syntax.ProcSubst) (string, error) {
	_ = r.fs.MkdirAll("/tmp", 0o777)
	id := r.procs.alloc()
	r.shared.mu.Lock()
	name := fmt.Sprintf("/tmp/.sh-procsubst-%d-%d", r.shared.rootPID, id)
	r.shared.temps = append(r.shared.temps, name)
	r.shared.mu.Unlock()
	f, err := r.fs.Create(name)
	if err != nil {
		return "", &shError{msg: name + ": " + redir.ErrText(err), status: 1, noExit: true}
	}
	if p.Op != syntax.CmdIn {
		f.Close()
		fds := r.fds.Clone()
		r.procOut = append(r.procOut, func() {
			in, err := r.fs.Open(name)
			if err != nil {
				fds.Release()
				r.errf("%s: %s", name, redir.ErrText(err))
				return
			}
			defer in.Close()
			s := r.subshellCopy()
			s.fds.Release()
			s.fds = fds
			s.fds.Set(0, &redir.FD{R: in, Name: name})
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
			r.errf("%s: %s", src, redir.ErrText(err))
			return name, nil
		}
		_, _ = f.Write([]byte(data))
		return name, nil
	}
	s := r.subshellCopy()
	s.fds.Set(1, &redir.FD{W: f, Name: name})
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

// globField appends to out the expansion of a split field as a pathname
// pattern when it has unquoted pattern characters; else the field's text.
func (r *Runner) globField(out []string, segs []expand.Seg) ([]string, error) {
	text, pat, maybe := expand.GlobText(segs)
	// Characters a backslash escapes are not pattern characters (an
	// expansion's x='a\*b' stays a\*b); a bracket may open in one part
	// and close in another ([$x]).
	if !maybe || r.opt["noglob"] || !glob.HasMeta(pat, r.shopt["extglob"]) {
		return append(out, text), nil
	}
	matches := r.globber().Glob(pat)
	if gi, ok := r.getVar("GLOBIGNORE"); ok && gi != "" {
		kept := matches[:0]
		for _, m := range matches {
			base := m[strings.LastIndex(m, "/")+1:]
			if base == "." || base == ".." {
				continue
			}
			ignored := false
			for _, p := range expand.SplitGlobIgnore(gi) {
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
			return nil, &shError{msg: "no match: " + text, status: 1, abort: true}
		}
		if r.shopt["nullglob"] {
			return out, nil
		}
		// An unmatched pattern is left as it was, backslashes and all.
		return append(out, text), nil
	}
	return append(out, matches...), nil
}

// extGlobParts adds an extended glob @(a|b) whose alternatives are
// expanded as words are: parameters and command substitutions, quotes
// (what they quote matches literally), nested extended globs. The parser
// keeps the text between the parentheses as it is.
func (r *Runner) extGlobParts(e *expand.Word, p *syntax.ExtGlob, dq bool) error {
	e.Add(expand.Seg{S: p.Op.String(), Quoted: dq})
	for i, alt := range glob.SplitExtGlobAlts(p.Pattern.Value) {
		if i > 0 {
			e.Add(expand.Seg{S: "|", Quoted: dq})
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
			e.Add(expand.Seg{S: alt, Quoted: dq})
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
				if f := e.Cur(); len(f.Segs) > 0 && !dq {
					f.Segs[len(f.Segs)-1].Quoted = false
				}
			default:
				if err := r.wordParts(e, []syntax.WordPart{part}, dq, false); err != nil {
					return err
				}
			}
		}
	}
	e.Add(expand.Seg{S: ")", Quoted: dq})
	return nil
}
