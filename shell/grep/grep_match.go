package grep

// grep's matcher: the patterns of one invocation compiled into one Go
// regexp, with GNU's -w and -x semantics.

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentenkit/agentenkit/shell/posixre"
)

// grepMatcher selects lines.
type grepMatcher struct {
	// re matches a selected line; nil when there are no patterns (no line
	// matches). For -w, group 1 is the word match.
	re *regexp.Regexp
	// next is, for -w, re without the start-of-line alternative, used to
	// continue after a match (-o).
	next  *regexp.Regexp
	words bool
	// lits, when not nil, are the patterns as plain strings: none has a
	// metacharacter, so a line matches when it contains one of them (when
	// it is one of them, with exact), as GNU grep searches such patterns.
	// match uses them; each (-o) still uses re.
	lits  [][]byte
	exact bool
}

// grepMeta are the bytes that may make a BRE or ERE pattern more than its
// own text (some only in one of the two: a pattern is taken as plain text
// only without any of them).
const grepMeta = `\.[]*^$+?(){}|`

// grepLiterals returns o's patterns as plain byte strings when each of
// them matches exactly its own text: -F, or BRE/ERE without
// metacharacters; nil otherwise. Patterns that are not valid UTF-8, and
// with -i patterns with a letter that has another case, keep the regexp.
func grepLiterals(o *grepOpts) [][]byte {
	if o.syntax == 'P' || (o.words && !o.lines) {
		return nil
	}
	lits := make([][]byte, 0, len(o.patterns))
	for _, p := range o.patterns {
		if !utf8.ValidString(p) || (o.syntax != 'F' && strings.ContainsAny(p, grepMeta)) {
			return nil
		}
		if o.icase {
			for _, r := range p {
				if unicode.SimpleFold(r) != r {
					return nil
				}
			}
		}
		lits = append(lits, []byte(p))
	}
	return lits
}

const grepNonWord = `(?-i:[^0-9A-Za-z_])`

// grepCompile builds the matcher for o's patterns.
// warn, if not nil, receives warnings about the patterns.
func grepCompile(o *grepOpts, warn func(string)) (*grepMatcher, error) {
	m := &grepMatcher{words: o.words && !o.lines}
	if len(o.patterns) == 0 {
		return m, nil
	}
	ro := posixre.Options{ERE: o.syntax == 'E', Lenient: true, ICase: o.icase, Warn: warn}
	parts := make([]string, 0, len(o.patterns))
	for _, p := range o.patterns {
		var s string
		var err error
		switch o.syntax {
		case 'F':
			s = posixre.QuoteLiteral(p)
		case 'P':
			// -P is Go's RE2 syntax: Perl's, without look-around or
			// back-references.
			s = p
			if _, err = regexp.Compile(p); err != nil {
				return nil, posixre.Error("-P uses Go's RE2 syntax: " + strings.TrimPrefix(err.Error(), "error parsing regexp: "))
			}
		default:
			s, err = posixre.Translate(p, ro)
		}
		if err != nil {
			return nil, err
		}
		parts = append(parts, "(?:"+s+")")
	}
	body := strings.Join(parts, "|")
	var err error
	switch {
	case o.lines:
		m.re, err = posixre.CompileGo(`^(?:`+body+`)$`, ro)
	case m.words:
		m.re, err = posixre.CompileGo(`(?:^|`+grepNonWord+`)(`+body+`)(?:`+grepNonWord+`|$)`, ro)
		if err == nil {
			m.next, err = posixre.CompileGo(grepNonWord+`(`+body+`)(?:`+grepNonWord+`|$)`, ro)
		}
	default:
		m.re, err = posixre.CompileGo(body, ro)
	}
	if err != nil {
		return nil, err
	}
	m.lits, m.exact = grepLiterals(o), o.lines
	return m, nil
}

// match reports whether line matches (before -v).
func (m *grepMatcher) match(line []byte) bool {
	if m.lits != nil {
		for _, l := range m.lits {
			if m.exact && bytes.Equal(line, l) || !m.exact && bytes.Contains(line, l) {
				return true
			}
		}
		return false
	}
	return m.re != nil && m.re.Match(line)
}

// each calls fn with the start and end of each non-empty match in line, as
// -o prints them.
func (m *grepMatcher) each(line []byte, fn func(s, e int)) {
	if m.re == nil {
		return
	}
	if !m.words {
		for _, loc := range m.re.FindAllIndex(line, -1) {
			if loc[1] > loc[0] {
				fn(loc[0], loc[1])
			}
		}
		return
	}
	off := 0
	for first := true; off <= len(line); first = false {
		var loc []int
		base := 0
		switch {
		case first:
			loc = m.re.FindSubmatchIndex(line)
		case off > 0 && grepIsWordByte(line[off-1]):
			base = off
			loc = m.next.FindSubmatchIndex(line[off:])
		default:
			base = off - 1
			loc = m.next.FindSubmatchIndex(line[off-1:])
		}
		if loc == nil {
			return
		}
		s, e := base+loc[2], base+loc[3]
		if e > s {
			fn(s, e)
			off = e
		} else {
			off = e + 1
		}
	}
}

func grepIsWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}
