// Package expand holds the parts of bash's word expansion that are
// functions of values: a word's fields as they are built (Word: pieces
// quoted or not, from an expansion to split or not), IFS field splitting
// (Split), the text of a field as a pattern (QuotePattern, GlobText),
// backslash and tilde rules (UnescapeDq, Word.AddLit, Tilde,
// TildeAssign), $'...' (ANSIC), the operators of ${...} (trim, case,
// replace, slice, @Q and the other transformations, in param.go), and
// the parameter a nameref or ${!ref} names (ParseRef, ElemRef, in
// ref.go).
//
// The interpreter walks the syntax tree, looks variables up, evaluates
// arithmetic and runs substitutions; it hands the values here. Nothing
// here reads a variable but through a function the caller passes, and
// nothing fails but with a typed error (SubstringError).
package expand

import (
	"bytes"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/agentenkit/agentenkit/shell/bash/printf"
)

// Seg is a piece of a field being expanded: its text, whether it was
// quoted (no splitting, no globbing) and whether it came from an
// unquoted expansion (split by IFS).
type Seg struct {
	S      string
	Quoted bool
	Split  bool
}

// Field is a word being built from segments; Real is false while nothing
// contributed to it (so that "$@" with no parameters gives no word).
type Field struct {
	Segs []Seg
	Real bool
}

// Word accumulates the fields of one word (an unquoted "$@" breaks it
// into several). The zero value is an empty word; a Word must not be
// copied once used (its first field and segments live in it, so that
// the common word of one or two segments costs one allocation).
type Word struct {
	Fields []*Field

	first    Field
	fieldBuf [1]*Field
	segBuf   [2]Seg
}

// Cur is the field being built (a first one is made).
func (w *Word) Cur() *Field {
	if len(w.Fields) == 0 {
		w.first.Segs = w.segBuf[:0]
		w.fieldBuf[0] = &w.first
		w.Fields = w.fieldBuf[:1]
	}
	return w.Fields[len(w.Fields)-1]
}

// Add appends s to the current field, which becomes real.
func (w *Word) Add(s Seg) {
	f := w.Cur()
	f.Segs = append(f.Segs, s)
	f.Real = true
}

// Break starts a new field.
func (w *Word) Break() {
	w.Cur()
	w.Fields = append(w.Fields, &Field{})
}

// Joined is the fields' text joined by spaces (no splitting).
func (w *Word) Joined() string { return w.Text(" ", nil) }

// Text is the fields' text joined by sep, each quoted segment's text
// passed through quote (kept as it is when quote is nil).
func (w *Word) Text(sep string, quote func(string) string) string {
	if len(w.Fields) == 0 {
		return ""
	}
	if len(w.Fields) == 1 && len(w.Fields[0].Segs) == 1 && (quote == nil || !w.Fields[0].Segs[0].Quoted) {
		return w.Fields[0].Segs[0].S
	}
	var b strings.Builder
	for i, f := range w.Fields {
		if i > 0 {
			b.WriteString(sep)
		}
		for _, s := range f.Segs {
			if s.Quoted && quote != nil {
				b.WriteString(quote(s.S))
			} else {
				b.WriteString(s.S)
			}
		}
	}
	return b.String()
}

// AddLit adds an unquoted literal: a backslash-escaped character becomes
// a quoted segment, a backslash-newline nothing.
func (w *Word) AddLit(v string) {
	if !strings.Contains(v, "\\") {
		w.Add(Seg{S: v})
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
				w.Add(Seg{S: b.String()})
				b.Reset()
			}
			_, n := utf8.DecodeRuneInString(v[i+1:])
			w.Add(Seg{S: v[i+1 : i+1+n], Quoted: true})
			i += n
			continue
		}
		b.WriteByte(c)
	}
	if b.Len() > 0 || len(v) == 0 {
		w.Add(Seg{S: b.String()})
	}
}

// AddList adds the values of $@ / ${a[@]} (separate fields) or, with
// star inside double quotes (dq), of "$*" / "${a[*]}" joined by sep (the
// first character of IFS). Unquoted, an empty value makes no word.
func (w *Word) AddList(vals []string, star, dq bool, sep string) {
	if star && dq {
		w.Add(Seg{S: strings.Join(vals, sep), Quoted: true})
		return
	}
	for i, v := range vals {
		if i > 0 {
			w.Break()
		}
		if !dq && v == "" {
			// An empty unquoted element is no word, unless joined.
			w.Cur()
			continue
		}
		w.Add(Seg{S: v, Quoted: dq, Split: !dq})
	}
}

// Whole is Split's result when f stays one field, found without
// splitting (and without ifs, which gives IFS, when no unquoted
// expansion has text): the field's segments, or nil when it is only
// empty unquoted expansions (no field). ok is false when f needs Split.
func Whole(f *Field, ifs func() string) (segs []Seg, ok bool) {
	if emptyExpansion(f.Segs) {
		return nil, true
	}
	needs := false
	for _, s := range f.Segs {
		if s.Split && s.S != "" {
			needs = true
			break
		}
	}
	if !needs {
		return f.Segs, true
	}
	sep := ifs()
	if sep == "" {
		return f.Segs, true
	}
	for _, s := range f.Segs {
		if s.Split && strings.ContainsAny(s.S, sep) {
			return nil, false
		}
	}
	return f.Segs, true
}

// Split splits a field's unquoted expansion results by ifs as bash does:
// IFS whitespace runs separate, each other IFS character ends a field
// (keeping empty ones between two of them); a field made only of empty
// unquoted expansions is removed.
func Split(f *Field, ifs string) [][]Seg {
	if segs, ok := Whole(f, func() string { return ifs }); ok {
		if segs == nil {
			return nil
		}
		return [][]Seg{segs}
	}
	var out [][]Seg
	var cur []Seg
	has := false       // cur has content (even an empty quoted string)
	justEnded := false // a field just ended at IFS whitespace
	emit := func() {
		out = append(out, cur)
		cur, has = nil, false
	}
	for _, s := range f.Segs {
		if !s.Split {
			cur = append(cur, s)
			has = true
			justEnded = false
			continue
		}
		var b strings.Builder
		flush := func() {
			if b.Len() > 0 {
				cur = append(cur, Seg{S: b.String(), Split: true})
				b.Reset()
			}
		}
		for _, c := range s.S {
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
// expansions.
func emptyExpansion(segs []Seg) bool {
	for _, s := range segs {
		if !s.Split || s.S != "" {
			return false
		}
	}
	return true
}

// GlobText is a split field's text and the same as a pattern (quoted
// characters escaped); maybe is false when no unquoted segment has a
// pattern character, and then pat is "".
func GlobText(segs []Seg) (text, pat string, maybe bool) {
	for _, s := range segs {
		if !s.Quoted && strings.ContainsAny(s.S, "*?[(") {
			maybe = true
			break
		}
	}
	if !maybe && len(segs) == 1 {
		return segs[0].S, "", false
	}
	var t, p strings.Builder
	for _, s := range segs {
		t.WriteString(s.S)
		if !maybe {
			continue
		}
		if s.Quoted {
			p.WriteString(QuotePattern(s.S))
		} else {
			p.WriteString(s.S)
		}
	}
	return t.String(), p.String(), maybe
}

// QuotePattern escapes s's pattern characters (extended globs' too) so
// that it matches itself.
func QuotePattern(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[]\()|!+@{}`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// UnescapeDq removes the backslashes that escape $ ` " \ and newline
// inside double quotes (not " in a here-document, hdoc).
func UnescapeDq(s string, hdoc bool) string {
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

// Tilde expands a leading ~ of an unquoted literal: ~ is $HOME, ~+ $PWD,
// ~- $OLDPWD, ~root and ~user the sandbox's two users' homes; s is kept
// when $HOME or $OLDPWD is unset or the user is unknown. getVar reads a
// variable.
func Tilde(s string, getVar func(string) (string, bool)) string {
	if !strings.HasPrefix(s, "~") {
		return s
	}
	user, rest, _ := strings.Cut(s[1:], "/")
	if strings.Contains(s, "/") {
		rest = "/" + rest
	}
	var home string
	switch user {
	case "", "-":
		h, ok := getVar(map[string]string{"": "HOME", "-": "OLDPWD"}[user])
		if !ok {
			return s
		}
		home = h
	case "+":
		home, _ = getVar("PWD")
	case "root": // the sandbox's users: root and user (uid 1000)
		home = "/root"
	case "user":
		home = "/home/user"
	default:
		return s
	}
	return home + rest
}

// TildeAssign is Tilde at the start (when start) and after each ':' of
// an assignment's value.
func TildeAssign(v string, start bool, getVar func(string) (string, bool)) string {
	parts := strings.Split(v, ":")
	for i, part := range parts {
		if i > 0 || start {
			parts[i] = Tilde(part, getVar)
		}
	}
	return strings.Join(parts, ":")
}

// SplitGlobIgnore splits GLOBIGNORE at the colons outside bracket
// expressions ([[:alnum:]]* is one pattern).
func SplitGlobIgnore(s string) []string {
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

// ANSIC decodes the escapes of $'...'; the string ends at a NUL byte, as
// in C.
func ANSIC(s string) string {
	out, _ := printf.DecodeEscapes(s, false)
	if i := strings.IndexByte(out, 0); i >= 0 {
		out = out[:i]
	}
	return out
}

// MaxSubstBytes caps what one command substitution keeps. bash grows its
// buffer until memory runs out; here the writer past the cap fails as a
// write to a full device does (ENOMEM), so `x=$(yes)` ends with an error
// instead of taking the host's memory.
const MaxSubstBytes = 256 << 20

// SubstBuffer keeps a command substitution's output, at most
// MaxSubstBytes of it.
type SubstBuffer struct{ Buf *bytes.Buffer }

func (w SubstBuffer) Write(p []byte) (int, error) {
	if room := MaxSubstBytes - w.Buf.Len(); len(p) > room {
		n, _ := w.Buf.Write(p[:max(room, 0)])
		return n, syscall.ENOMEM
	}
	return w.Buf.Write(p)
}
