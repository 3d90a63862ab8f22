package parse

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Syntax errors as bash words them. mvdan's parser says what it expected
// ("`>` must be followed by a word"); bash names the token it did not
// expect and quotes the line it is on:
//
//	bash: -c: line 1: syntax error near unexpected token `newline'
//	bash: -c: line 1: `echo >'
//
// or, when the input ends first, "syntax error: unexpected end of file"
// on the line after the last. The token is found again in the source at
// the error's position.

// PrintSyntaxError writes err, a parse error of src, to w with the prefix
// pfx ("bash: -c", "bash: eval", a script's name). The first line of src
// is line base.
func PrintSyntaxError(w io.Writer, pfx, src string, base int, err error) {
	var pe syntax.ParseError
	var le syntax.LangError
	switch {
	case errors.As(err, &pe):
		for _, l := range bashSyntaxLines(src, base, pe) {
			p := pfx
			if strings.Contains(l, ": warning: ") {
				// a warning names the shell (or script) and the line only
				p = strings.TrimSuffix(strings.TrimSuffix(p, ": -c"), ": eval")
			}
			fmt.Fprintf(w, "%s: %s\n", p, l)
		}
	case errors.As(err, &le):
		fmt.Fprintf(w, "%s: line %d: syntax error: %s is not supported\n", pfx, max(le.Pos.Line(), 1), le.Feature)
	default:
		fmt.Fprintf(w, "%s: syntax error: %v\n", pfx, err)
	}
}

// bashSyntaxLines renders pe, an error of parsing src, as bash's lines
// (without the prefix).
func bashSyntaxLines(src string, base int, pe syntax.ParseError) []string {
	line := int(max(pe.Pos.Line(), 1)) + base - 1
	eof := func() []string {
		n := strings.Count(src, "\n") + base
		if !strings.HasSuffix(src, "\n") {
			n++
		}
		return []string{fmt.Sprintf("line %d: syntax error: unexpected end of file", n)}
	}
	if q, ok := strings.CutPrefix(pe.Text, "reached EOF without closing quote "); ok {
		return []string{fmt.Sprintf("line %d: unexpected EOF while looking for matching %s'", line, strings.TrimSuffix(q, "`"))}
	}
	if rest, ok := strings.CutPrefix(pe.Text, "reached EOF without matching "); ok {
		// a subshell or a group is a list bash reads to the end; $(, $((
		// and (( are words it scans for the closing parenthesis.
		if strings.HasPrefix(rest, "`(` ") || strings.HasPrefix(rest, "`{` ") {
			return eof()
		}
		closing := ")"
		if i := strings.LastIndex(rest, " with `"); i >= 0 && !strings.HasPrefix(rest[i+7:], ")") {
			closing = strings.TrimSuffix(rest[i+7:], "`")
		}
		return []string{fmt.Sprintf("line %d: unexpected EOF while looking for matching `%s'", line, closing)}
	}
	if d, ok := strings.CutPrefix(pe.Text, "unclosed here-document `"); ok {
		// a here-document the input ends in, inside a command that is
		// not closed: bash warns, and the input ends too soon
		d = strings.TrimSuffix(d, "`")
		if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src+"\n"+d+"\n"), ""); err != nil {
			var pe2 syntax.ParseError
			if errors.As(err, &pe2) && pe2.Incomplete {
				last := eof()
				n := strings.Count(src, "\n") + base
				if !strings.HasSuffix(src, "\n") {
					n++
				}
				return append([]string{fmt.Sprintf("line %d: warning: here-document at line %d delimited by end-of-file (wanted `%s')", n-1, line, d)}, last...)
			}
		}
	}
	off := int(pe.Pos.Offset())
	if off > len(src) {
		off = len(src)
	}
	tokOff := -1
	switch {
	case strings.Contains(pe.Text, " must be followed by "):
		left, ok := quoted(pe.Text)
		if !ok || strings.Contains(left, " ") || !strings.HasPrefix(src[off:], left) {
			break
		}
		after := off + len(left)
		what := pe.Text[strings.Index(pe.Text, " must be followed by ")+len(" must be followed by "):]
		lists := what == "a statement list" || what == "a statement"
		tokOff = skipBlanks(src, after, lists)
		if !lists && tokOff == len(src) {
			return newlineAt(src, base, tokOff)
		}
	case strings.Contains(pe.Text, "; encountered "):
		tokOff = off
		if tok, _ := tokenAt(src, off); tok == "(" {
			// "name (" starts a function definition: bash chokes on what
			// follows the parenthesis, unless more words came before.
			start := strings.LastIndexByte(src[:off], '\n') + 1
			if before := strings.TrimSpace(src[start:off]); before != "" && !strings.ContainsAny(before, " \t") {
				tokOff = skipBlanks(src, off+1, false)
			}
		}
	case strings.Contains(pe.Text, " can only "), strings.Contains(pe.Text, " is not a valid start for a statement"):
		tokOff = off
	case pe.Text == "invalid func name":
		// "foo$x(...": bash takes it for a function definition and
		// chokes on what follows the parenthesis.
		end := strings.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		if i := strings.IndexByte(src[off:off+end], '('); i >= 0 {
			if next := skipBlanks(src, off+i+1, false); !strings.HasPrefix(src[next:], ")") {
				tokOff = next
			}
		}
	}
	if tokOff < 0 {
		if pe.Incomplete {
			return eof()
		}
		return []string{fmt.Sprintf("line %d: syntax error: %s", line, pe.Text)}
	}
	tok, _ := tokenAt(src, tokOff)
	if tok == "" {
		return eof()
	}
	if tok == "newline" {
		return newlineAt(src, base, tokOff)
	}
	return nearToken(src, base, tokOff, tok)
}

// newlineAt is the error of a line that ends (at off) too soon.
func newlineAt(src string, base, off int) []string {
	return nearToken(src, base, off, "newline")
}

// nearToken is bash's error for the token tok at off of src, with the
// line it is on.
func nearToken(src string, base, off int, tok string) []string {
	tokLine := base + strings.Count(src[:off], "\n")
	start := strings.LastIndexByte(src[:off], '\n') + 1
	end := strings.IndexByte(src[off:], '\n')
	if tok == "newline" {
		end = 0
	}
	text := src[start:]
	if end >= 0 {
		text = src[start : off+end]
	}
	return []string{
		fmt.Sprintf("line %d: syntax error near unexpected token `%s'", tokLine, tok),
		fmt.Sprintf("line %d: `%s'", tokLine, text),
	}
}

// quoted returns the first `...` of s.
func quoted(s string) (string, bool) {
	i := strings.IndexByte(s, '`')
	if i < 0 {
		return "", false
	}
	j := strings.IndexByte(s[i+1:], '`')
	if j < 0 {
		return "", false
	}
	return s[i+1 : i+1+j], true
}

// skipBlanks returns the offset of the next token of src from off:
// past blanks and escaped newlines, and with newlines also past newlines
// and comments.
func skipBlanks(src string, off int, newlines bool) int {
	for off < len(src) {
		switch c := src[off]; {
		case c == ' ' || c == '\t':
			off++
		case c == '\\' && off+1 < len(src) && src[off+1] == '\n':
			off += 2
		case newlines && c == '\n':
			off++
		case newlines && c == '#':
			for off < len(src) && src[off] != '\n' {
				off++
			}
		default:
			return off
		}
	}
	return off
}

// bashOps are bash's operators, longest first.
var bashOps = []string{";;&", "<<<", "<<-", "&>>", ";;", ";&", "&&", "||", "|&", "<<", "<&", "<>", ">>", ">&", ">|", "&>", ";", "&", "|", "(", ")", "<", ">"}

// tokenAt returns the token of src at off as bash names it in messages
// ("newline" for a newline, "" at the end) and its length.
func tokenAt(src string, off int) (string, int) {
	if off >= len(src) {
		return "", 0
	}
	if src[off] == '\n' {
		return "newline", 1
	}
	for _, op := range bashOps {
		if strings.HasPrefix(src[off:], op) {
			return op, len(op)
		}
	}
	i := off
	for i < len(src) {
		c := src[i]
		if strings.IndexByte(" \t\n;&|()<>", c) >= 0 {
			break
		}
		switch c {
		case '\\':
			i += 2
			continue
		case '\'', '"':
			j := strings.IndexByte(src[i+1:], c)
			if j < 0 {
				i = len(src)
				continue
			}
			i += j + 2
			continue
		}
		i++
	}
	i = min(i, len(src))
	return src[off:i], i - off
}
