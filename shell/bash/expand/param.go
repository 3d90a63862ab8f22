package expand

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/glob"
	"github.com/agentenkit/agentenkit/shell/bash/printf"
	"github.com/agentenkit/agentenkit/shell/bash/vars"
)

// Trim is ${v#pat}, ${v##pat}, ${v%pat} or ${v%%pat} (op): the shortest
// or longest prefix or suffix that matches pat removed, cut at character
// boundaries; v as it is when pat does not compile.
func Trim(v, pat string, op syntax.ParExpOperator) string {
	re := glob.Regexp(pat, pattern.EntireString, false)
	if re == nil {
		return v
	}
	n := len(v)
	switch op {
	case syntax.RemSmallPrefix:
		for i := 0; i <= n; i++ {
			if utf8.RuneStart(at(v, i)) && re.MatchString(v[:i]) {
				return v[i:]
			}
		}
	case syntax.RemLargePrefix:
		for i := n; i >= 0; i-- {
			if utf8.RuneStart(at(v, i)) && re.MatchString(v[:i]) {
				return v[i:]
			}
		}
	case syntax.RemSmallSuffix:
		for i := n; i >= 0; i-- {
			if utf8.RuneStart(at(v, i)) && re.MatchString(v[i:]) {
				return v[:i]
			}
		}
	case syntax.RemLargeSuffix:
		for i := 0; i <= n; i++ {
			if utf8.RuneStart(at(v, i)) && re.MatchString(v[i:]) {
				return v[:i]
			}
		}
	}
	return v
}

// at is s[i], or a rune start at the end.
func at(s string, i int) byte {
	if i >= len(s) {
		return 'a'
	}
	return s[i]
}

// CaseMod is ${v^pat}, ${v^^pat}, ${v,pat} or ${v,,pat} (op): the first
// or every character that matches pat (one character; "?" for all)
// upper- or lower-cased.
func CaseMod(v, pat string, op syntax.ParExpOperator) string {
	re := glob.Regexp(pat, pattern.EntireString, false)
	var b strings.Builder
	for i, c := range v {
		if (op == syntax.UpperFirst || op == syntax.LowerFirst) && i > 0 {
			b.WriteString(v[i:])
			break
		}
		if re != nil && re.MatchString(string(c)) {
			if op == syntax.UpperFirst || op == syntax.UpperAll {
				c = unicode.ToUpper(c)
			} else {
				c = unicode.ToLower(c)
			}
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Replace is ${v/pat/with} (all: ${v//pat/with}) on each value; pat may
// start with # or % (anchored at the start or the end). With
// byteLocale (LC_ALL=C) a character is a byte: ? matches one byte of μ.
func Replace(vals []string, pat, with string, all, byteLocale bool) []string {
	if !byteLocale {
		return replace(vals, pat, with, all)
	}
	in := make([]string, len(vals))
	for i, v := range vals {
		in[i] = bytesAsRunes(v)
	}
	out := replace(in, bytesAsRunes(pat), bytesAsRunes(with), all)
	for i, v := range out {
		out[i] = runesAsBytes(v)
	}
	return out
}

// bytesAsRunes reads s as Latin-1: one rune for each byte.
func bytesAsRunes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// runesAsBytes undoes bytesAsRunes.
func runesAsBytes(s string) string {
	b := make([]byte, 0, len(s))
	for _, c := range s {
		b = append(b, byte(c))
	}
	return string(b)
}

// negatedBracketFirst reports whether pat has a bracket expression that
// starts with a negated ]: [^]...] or [!]...].
func negatedBracketFirst(pat string) bool {
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '[':
			if strings.HasPrefix(pat[i+1:], "^]") || strings.HasPrefix(pat[i+1:], "!]") {
				return true
			}
		}
	}
	return false
}

func replace(vals []string, pat, with string, all bool) []string {
	anchorStart, anchorEnd := false, false
	if strings.HasPrefix(pat, "#") {
		anchorStart, pat = true, pat[1:]
	} else if strings.HasPrefix(pat, "%") {
		anchorEnd, pat = true, pat[1:]
	}
	re := glob.Regexp(pat, pattern.EntireString, false)
	if negatedBracketFirst(pat) {
		// bash 5.2's ${x/[^]]/y} matches nothing (case and ${x#...}
		// read [^]] as "not ]").
		re = nil
	}
	out := make([]string, len(vals))
	for vi, v := range vals {
		if pat == "" && (anchorStart || anchorEnd) {
			// ${x/#/p} prefixes p, ${x/%/s} appends s.
			if anchorStart {
				out[vi] = with + v
			} else {
				out[vi] = v + with
			}
			continue
		}
		if re == nil {
			out[vi] = v
			continue
		}
		var b strings.Builder
		i := 0
		replaced := false
		for i <= len(v) {
			if anchorStart && i > 0 || replaced && !all {
				b.WriteString(v[i:])
				break
			}
			end := -1
			for j := len(v); j >= i; j-- {
				if anchorEnd && j != len(v) {
					continue
				}
				if !utf8.RuneStart(at(v, j)) {
					continue
				}
				if re.MatchString(v[i:j]) {
					end = j
					break
				}
			}
			if end >= 0 && (end > i || end == i && pat != "" && !all) {
				b.WriteString(with)
				replaced = true
				if end == i {
					if i < len(v) {
						_, n := utf8.DecodeRuneInString(v[i:])
						b.WriteString(v[i : i+n])
						i += n
						continue
					}
					break
				}
				i = end
				if i == len(v) {
					break
				}
				continue
			}
			if i == len(v) {
				break
			}
			_, n := utf8.DecodeRuneInString(v[i:])
			b.WriteString(v[i : i+n])
			i += n
		}
		out[vi] = b.String()
	}
	return out
}

// SubstringError is a negative length too long for ${v:off:len}, or any
// negative length of a list's slice: bash's "substring expression < 0".
type SubstringError struct{ Len int64 }

func (e *SubstringError) Error() string { return fmt.Sprintf("%d: substring expression < 0", e.Len) }

// SliceString is ${v:off:len} on each value, counted in characters: a
// negative off counts from the end, a negative len leaves that many
// characters off the end. length evaluates len (nil when absent); it is
// called for each value that reaches it, as bash evaluates it.
func SliceString(vals []string, off int64, length func() (int64, error)) ([]string, error) {
	out := make([]string, len(vals))
	for i, v := range vals {
		rs := []rune(v)
		n := int64(len(rs))
		o := off
		if o < 0 {
			o += n
		}
		if o < 0 || o > n {
			continue
		}
		end := n
		if length != nil {
			l, err := length()
			if err != nil {
				return nil, err
			}
			if l < 0 {
				end = n + l
				if end < o {
					return nil, &SubstringError{l}
				}
			} else {
				end = min(n, o+l)
			}
		}
		out[i] = string(rs[o:end])
	}
	return out, nil
}

// SliceList is ${a[@]:off:len} on a list of values: a negative off
// counts from the end; nothing when off is out of range; a negative len
// is a SubstringError. length is nil when absent.
func SliceList(vals []string, off int64, length func() (int64, error)) ([]string, error) {
	n := int64(len(vals))
	if off < 0 {
		off += n
	}
	if off < 0 || off > n {
		return nil, nil
	}
	vals = vals[off:]
	if length != nil {
		l, err := length()
		if err != nil {
			return nil, err
		}
		if l < 0 {
			return nil, &SubstringError{l}
		}
		if l < int64(len(vals)) {
			vals = vals[:l]
		}
	}
	return vals, nil
}

// Transform is ${v@op} on each value for the operators that depend on
// the value alone: Q (quoted for reuse), E (escapes decoded), U, L, u
// (case), K and k on a scalar (quoted as Q); P is the value as it is
// here. ok is false for another operator.
func Transform(op string, vals []string) (ok bool) {
	var f func(string) string
	switch op {
	case "Q", "K", "k":
		f = printf.SingleQuote
	case "E":
		f = ANSIC
	case "U":
		f = strings.ToUpper
	case "L":
		f = strings.ToLower
	case "u":
		f = func(v string) string {
			if v == "" {
				return v
			}
			rn, n := utf8.DecodeRuneInString(v)
			return string(unicode.ToUpper(rn)) + v[n:]
		}
	case "P":
		return true
	default:
		return false
	}
	for i, v := range vals {
		vals[i] = f(v)
	}
	return true
}

// KeyValues is "${a[@]@k}" (the keys and values, each a word) or, with
// quoted, "${a[@]@K}" (one word: key and quoted value pairs as declare
// -p writes them, an assoc's with a trailing space).
func KeyValues(v *vars.Var, quoted bool) []string {
	var parts []string
	for _, k := range v.Subscripts() {
		val := ""
		if v.Kind == vars.Indexed {
			n, _ := strconv.Atoi(k)
			val = v.Idx[n]
		} else {
			val = v.Assoc[k]
			if quoted {
				k = printf.AssocKeyQuote(k)
			}
		}
		if quoted {
			parts = append(parts, k+" "+printf.DeclQuote(val))
		} else {
			parts = append(parts, k, val)
		}
	}
	if !quoted {
		return parts
	}
	s := strings.Join(parts, " ")
	if v.Kind == vars.Assoc && s != "" {
		s += " "
	}
	return []string{s}
}

// Missing reports whether ${x-w}, ${x=w}, ${x?w} take their word (and
// ${x+w} does not): x is unset, a list without elements, or, with colon
// (${x:-w}), empty ("$*" joined by sep empty, "$@" of one empty
// element). sep joins $* for the test: StarSep's inside double quotes,
// a space outside them (as bash 5.2 tests it).
func Missing(vals []string, set, isList, star, colon bool, sep string) bool {
	if !set || isList && len(vals) == 0 {
		return true
	}
	if !colon {
		return false
	}
	if isList {
		return star && strings.Join(vals, sep) == "" || len(vals) == 1 && vals[0] == ""
	}
	return len(vals) == 0 || vals[0] == ""
}
