// Package glob is bash's patterns: matching a string against a pattern
// (extended globs included, with !(...) by backtracking), pathname
// expansion over a small file system interface, and brace expansion of
// words of the mvdan.cc/sh/v3/syntax tree.
package glob

import (
	"io/fs"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// FS is the file system pathname expansion reads. Paths are as the
// pattern names them (relative ones to the shell's working directory;
// "" is not passed, "." is); an error means there is no such file.
type FS interface {
	Stat(path string) (fs.FileInfo, error)
	Lstat(path string) (fs.FileInfo, error)
	// ReadDir lists a directory, sorted by name, without . and ..
	ReadDir(path string) ([]fs.DirEntry, error)
}

// Globber expands patterns into the paths that match them, with the
// shell options that change how (shopt's names).
type Globber struct {
	FS                                                   FS
	ExtGlob, GlobStar, DotGlob, NoCaseGlob, GlobSkipDots bool
	// Ignore: GLOBIGNORE is set, so names starting with a dot match too.
	Ignore bool
}

// MatchPath matches a whole path against a GLOBIGNORE pattern: * and ?
// do not match a slash, but do match a leading dot.
func MatchPath(pat, path string, ext bool) bool {
	mode := pattern.Filenames | pattern.EntireString | pattern.GlobLeadingDot
	if ext {
		mode |= pattern.ExtendedOperators
	}
	rx, err := pattern.Regexp(pat, mode)
	if err != nil {
		return Match(pat, path, false)
	}
	re, err := regexp.Compile(rx)
	if err != nil {
		return false
	}
	return re.MatchString(path)
}

// dotEntry is the directory entry . or .., which a listing leaves out.
func dotEntry(name string) fs.DirEntry { return dotDirEntry(name) }

type dotDirEntry string

func (d dotDirEntry) Name() string               { return string(d) }
func (d dotDirEntry) IsDir() bool                { return true }
func (d dotDirEntry) Type() fs.FileMode          { return fs.ModeDir }
func (d dotDirEntry) Info() (fs.FileInfo, error) { return nil, fs.ErrNotExist }

// Unescape removes a pattern's backslashes (quote removal).
func Unescape(p string) string {
	if !strings.Contains(p, "\\") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			i++
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// HasMeta reports whether p is a pattern as bash's glob_pattern_p sees
// it: an unquoted * or ?, a [ with an unquoted ] after it (a lone [ or ],
// as in "[ $i -lt 9 ]", is plain text), or, with ext, a parenthesis of an
// extended glob.
func HasMeta(p string, ext bool) bool {
	open := false
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			open = true
		case ']':
			if open {
				return true
			}
		case '(':
			if ext {
				return true
			}
		}
	}
	return false
}

// Glob lists the paths matching pattern p, sorted; none is nil.
func (g *Globber) Glob(p string) []string {
	abs := strings.HasPrefix(p, "/")
	comps := strings.Split(p, "/")
	var base []string
	if abs {
		base = []string{"/"}
		comps = comps[1:]
	} else {
		base = []string{""}
	}
	ext := g.ExtGlob
	for ci, comp := range comps {
		last := ci == len(comps)-1
		if comp == "" {
			if last {
				var kept []string
				for _, b := range base {
					if fi, err := g.FS.Stat(OrDot(b)); err == nil && fi.IsDir() {
						kept = append(kept, b+"/")
					}
				}
				base = kept
			}
			continue
		}
		var next []string
		if comp == "**" && g.GlobStar {
			for _, b := range base {
				next = append(next, g.globstar(b, last)...)
			}
			base = next
			continue
		}
		if !HasMeta(comp, ext) {
			lit := Unescape(comp)
			for _, b := range base {
				pth := Join(b, lit)
				if _, err := g.FS.Lstat(pth); err == nil {
					next = append(next, pth)
				}
			}
			base = next
			continue
		}
		explicitDot := strings.HasPrefix(comp, ".") || strings.HasPrefix(comp, "\\.")
		dotOK := g.DotGlob || g.Ignore || explicitDot
		mode := pattern.Filenames | pattern.EntireString
		if ext {
			mode |= pattern.ExtendedOperators
		}
		if g.NoCaseGlob {
			mode |= pattern.NoGlobCase
		}
		if dotOK {
			mode |= pattern.GlobLeadingDot
		}
		var matches func(string) bool
		if rx, err := pattern.Regexp(comp, mode); err == nil {
			re, err := regexp.Compile(rx)
			if err != nil {
				return nil
			}
			matches = re.MatchString
		} else if ext && strings.Contains(comp, "!(") {
			// Negation has no regular expression: match by backtracking.
			matches = func(name string) bool { return ExtMatch(comp, name, 0) }
		} else {
			return nil
		}
		// . and .. match only a pattern starting with a dot, and only
		// with globskipdots off.
		dots := explicitDot && !g.GlobSkipDots
		for _, b := range base {
			ents, err := g.FS.ReadDir(OrDot(b))
			if err != nil {
				continue
			}
			if dots {
				ents = append([]fs.DirEntry{dotEntry("."), dotEntry("..")}, ents...)
			}
			for _, ent := range ents {
				name := ent.Name()
				if strings.HasPrefix(name, ".") && !dotOK {
					continue
				}
				if (name == "." || name == "..") && !dots {
					continue
				}
				if !matches(name) {
					continue
				}
				if !last && !ent.IsDir() {
					if fi, err := g.FS.Stat(Join(b, name)); err != nil || !fi.IsDir() {
						continue
					}
				}
				next = append(next, Join(b, name))
			}
		}
		base = next
	}
	slices.Sort(base)
	return slices.Compact(base)
}

// OrDot is b, or "." for "" (the working directory).
func OrDot(b string) string {
	if b == "" {
		return "."
	}
	return b
}

// Join is name under the directory b ("" is the working directory).
func Join(b, name string) string {
	switch b {
	case "":
		return name
	case "/":
		return "/" + name
	}
	if strings.HasSuffix(b, "/") {
		return b + name
	}
	return b + "/" + name
}

// globstar is ** under b: every path below it (directories only unless
// last).
func (g *Globber) globstar(b string, last bool) []string {
	var out []string
	if !last {
		out = append(out, b)
	}
	var walk func(d string)
	walk = func(d string) {
		ents, err := g.FS.ReadDir(OrDot(d))
		if err != nil {
			return
		}
		for _, ent := range ents {
			if strings.HasPrefix(ent.Name(), ".") && !g.DotGlob {
				continue
			}
			p := Join(d, ent.Name())
			if ent.IsDir() {
				if last {
					out = append(out, p)
				} else {
					out = append(out, p)
				}
				walk(p)
			} else if last {
				out = append(out, p)
			}
		}
	}
	walk(b)
	if last && b != "" {
		out = append([]string{b}, out...)
	}
	return out
}

// Match reports whether s matches the shell pattern pat (whole string,
// extended globs included).
func Match(pat, s string, nocase bool) bool {
	re := Regexp(pat, pattern.EntireString, nocase)
	if re == nil {
		if strings.Contains(pat, "!(") {
			// Negation has no regular expression: match by backtracking.
			return ExtMatch(pat, s, 0)
		}
		return pat == s
	}
	return re.MatchString(s)
}

// Regexp compiles pattern pat (extended globs included, ** as *) in
// mode; nil when it has no regular expression (!(...)) or is malformed.
func Regexp(pat string, mode pattern.Mode, nocase bool) *regexp.Regexp {
	mode |= pattern.NoGlobStar | pattern.ExtendedOperators
	if nocase {
		mode |= pattern.NoGlobCase
	}
	rx, err := pattern.Regexp(pat, mode)
	if err != nil {
		return nil
	}
	re, err := regexp.Compile("(?s)" + rx)
	if err != nil {
		return nil
	}
	return re
}

// Braces expands the brace expansions of a word into words.
func Braces(w *syntax.Word) []*syntax.Word {
	idx := -1
	for i, p := range w.Parts {
		if _, ok := p.(*syntax.BraceExp); ok {
			idx = i
			break
		}
	}
	if idx < 0 {
		return []*syntax.Word{w}
	}
	be := w.Parts[idx].(*syntax.BraceExp)
	var alts []*syntax.Word
	if be.Sequence {
		for _, s := range braceSeq(be) {
			alts = append(alts, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}})
		}
		if alts == nil {
			alts = []*syntax.Word{{Parts: []syntax.WordPart{&syntax.Lit{Value: printWord(&syntax.Word{Parts: []syntax.WordPart{be}})}}}}
		}
	} else {
		alts = be.Elems
	}
	var out []*syntax.Word
	for _, a := range alts {
		parts := slices.Clone(w.Parts[:idx])
		parts = append(parts, a.Parts...)
		parts = append(parts, w.Parts[idx+1:]...)
		out = append(out, Braces(&syntax.Word{Parts: parts})...)
	}
	return out
}

// braceSeq expands {x..y[..incr]}.
func braceSeq(be *syntax.BraceExp) []string {
	var vals []string
	for _, e := range be.Elems {
		vals = append(vals, e.Lit())
	}
	if len(vals) < 2 {
		return nil
	}
	incr := int64(1)
	if len(vals) == 3 {
		n, err := strconv.ParseInt(vals[2], 10, 64)
		if err != nil {
			return nil
		}
		incr = n
	}
	if incr < 0 {
		incr = -incr
	}
	if incr == 0 {
		incr = 1
	}
	a, errA := strconv.ParseInt(vals[0], 10, 64)
	b, errB := strconv.ParseInt(vals[1], 10, 64)
	if errA == nil && errB == nil {
		width := 0
		for _, v := range vals[:2] {
			t := strings.TrimPrefix(v, "-")
			if len(t) > 1 && t[0] == '0' {
				width = max(width, len(v))
			}
		}
		var out []string
		step := incr
		if a > b {
			step = -incr
		}
		for i := a; (step > 0 && i <= b) || (step < 0 && i >= b); i += step {
			s := strconv.FormatInt(i, 10)
			if width > 0 {
				neg := i < 0
				if neg {
					s = s[1:]
				}
				w := width
				if neg {
					w--
				}
				for len(s) < w {
					s = "0" + s
				}
				if neg {
					s = "-" + s
				}
			}
			out = append(out, s)
			if len(out) > 1<<20 {
				break
			}
		}
		return out
	}
	if len(vals[0]) == 1 && len(vals[1]) == 1 {
		x, y := int64(vals[0][0]), int64(vals[1][0])
		var out []string
		step := incr
		if x > y {
			step = -incr
		}
		for i := x; (step > 0 && i <= y) || (step < 0 && i >= y); i += step {
			out = append(out, string(rune(i)))
		}
		return out
	}
	return nil
}

// SplitExtGlobAlts splits an extended glob's text at its top-level |.
func SplitExtGlobAlts(s string) []string {
	var out []string
	depth, start := 0, 0
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else if c == '\\' && q == '"' {
				i++
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			q = c
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// ExtMatch reports whether s matches the whole pattern p, extended globs
// included (with !(...), which regular expressions cannot express), by
// backtracking. depth bounds the recursion of nested patterns.
func ExtMatch(p, s string, depth int) bool {
	if depth > 64 {
		return false
	}
	for len(p) > 0 {
		c := p[0]
		if strings.IndexByte("?*+@!", c) >= 0 && len(p) > 1 && p[1] == '(' {
			end := extGlobEnd(p, 1)
			if end < 0 {
				break
			}
			alts := SplitExtGlobAlts(p[2:end])
			rest := p[end+1:]
			any := func(t string) bool {
				for _, a := range alts {
					if ExtMatch(a, t, depth+1) {
						return true
					}
				}
				return false
			}
			for k := 0; k <= len(s); k++ {
				head, tail := s[:k], s[k:]
				var ok bool
				switch c {
				case '@':
					ok = any(head)
				case '?':
					ok = head == "" || any(head)
				case '!':
					ok = !any(head)
				case '*':
					ok = extRepeat(alts, head, 0, depth)
				case '+':
					ok = extRepeat(alts, head, 1, depth)
				}
				if ok && ExtMatch(rest, tail, depth+1) {
					return true
				}
			}
			return false
		}
		switch c {
		case '*':
			for k := 0; k <= len(s); k++ {
				if ExtMatch(p[1:], s[k:], depth+1) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
			_, n := utf8.DecodeRuneInString(s)
			p, s = p[1:], s[n:]
			continue
		case '[':
			if end := strings.IndexByte(p[1:], ']'); end >= 0 && s != "" {
				cls := p[:end+2]
				if end == 0 || (end == 1 && (p[1] == '!' || p[1] == '^')) {
					if e2 := strings.IndexByte(p[end+2:], ']'); e2 >= 0 {
						cls = p[:end+2+e2+1]
					}
				}
				_, n := utf8.DecodeRuneInString(s)
				rx, err := pattern.Regexp(cls, pattern.EntireString)
				if err == nil {
					if re, err := regexp.Compile("(?s)" + rx); err == nil {
						if !re.MatchString(s[:n]) {
							return false
						}
						p, s = p[len(cls):], s[n:]
						continue
					}
				}
			}
		case '\\':
			if len(p) > 1 {
				p = p[1:]
				c = p[0]
			}
		}
		if s == "" || s[0] != c {
			return false
		}
		p, s = p[1:], s[1:]
	}
	return p == "" && s == ""
}

// extRepeat reports whether t is min or more matches of the alternatives.
func extRepeat(alts []string, t string, min, depth int) bool {
	if t == "" {
		return min == 0
	}
	for j := 1; j <= len(t); j++ {
		for _, a := range alts {
			if ExtMatch(a, t[:j], depth+1) && extRepeat(alts, t[j:], 0, depth+1) {
				return true
			}
		}
	}
	return false
}

// extGlobEnd is the index of the ')' closing the '(' at p[i], or -1.
func extGlobEnd(p string, i int) int {
	depth := 0
	for ; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// printWord is w's source text.
func printWord(w *syntax.Word) string {
	var b strings.Builder
	_ = syntax.NewPrinter().Print(&b, w)
	return b.String()
}
