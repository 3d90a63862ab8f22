package parse

import (
	"errors"
	"iter"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Reading a script as bash does: one line at a time (a line and the
// lines a command begun on it continues on), each read completely before
// it runs. Aliases are expanded while reading, so an alias defined on a
// line applies from the next line on, and a function's body keeps the
// aliases of when it was defined.
//
// mvdan's parser knows no aliases: an alias is expanded by replacing its
// word in the source text and parsing the line again. A word is an alias
// when it is an unquoted literal in command position (the first word of
// a simple command, the first word of an alias's text, or the word after
// an alias whose text ends in a blank) and is not already being expanded
// at that place (the text an alias put there is marked with its name).

// maxAliasSubst bounds the expansions in one line.
const maxAliasSubst = 10000

// Host is what a Reader needs of the shell that runs what it reads.
type Host interface {
	// ExpandAliases reports whether aliases are expanded now (shopt -s
	// expand_aliases, and at least one alias is defined).
	ExpandAliases() bool
	// Alias returns the text of the alias name.
	Alias(name string) (string, bool)
	// KshSubst records the source text of a mksh ${ cmd;} or ${|cmd;}
	// that the reader read as the placeholder command substitution c:
	// running c is bash's "bad substitution" naming text.
	KshSubst(c *syntax.CmdSubst, text string)
	// AppendElem records that the array literal's element e was written
	// [k]+=v (mvdan's parser knows only [k]=v): it appends to the element.
	AppendElem(e *syntax.ArrayElem)
}

// Reader hands out a script's lines of statements. It is not safe for
// concurrent use; Close releases its parser.
type Reader struct {
	host Host
	text string // the source, with the aliases of the lines read so far expanded

	from     int // offset the current parse started at
	consumed int // statements of the current parse already handed out
	pull     func() (*syntax.Stmt, error, bool)
	stop     func()
	buf      []*syntax.Stmt // parsed, not handed out
	err      error          // the parse's error, after buf
	eof      bool           // the parse ended (err or end of text)
	lastEnd  int            // offset after the last statement handed out

	parenTries int               // ((...)) read again as ( (...) ) on this line
	ksh        map[int]string    // ${...} replaced to parse, by offset: their text
	appends    map[int]bool      // offsets of the ] of [k]+=v read as [k]=v
	ariths     map[int]string    // ((...)) read as 0 to parse, by offset of "((": their text
	inlineIdx  map[int][2]string // a[i]=v before a command read as a___=v, by offset: name and index
	badIdx     map[int]string    // a[i]=v whose i does not parse, read as a[0], by offset of i: its text

	regions  []aliasRegion
	eligible []int // offsets of words that are in command position by an alias
}

// aliasRegion is text an alias's expansion put at [from, to).
type aliasRegion struct {
	from, to int
	name     string
}

// NewReader returns a Reader of the script text; a nil host expands no
// aliases.
func NewReader(host Host, text string) *Reader {
	if host == nil {
		host = noHost{}
	}
	rd := &Reader{host: host, text: text}
	rd.restart(0, 0)
	return rd
}

// noHost is a Host without aliases.
type noHost struct{}

func (noHost) ExpandAliases() bool               { return false }
func (noHost) Alias(string) (string, bool)       { return "", false }
func (noHost) KshSubst(*syntax.CmdSubst, string) {}
func (noHost) AppendElem(*syntax.ArrayElem)      {}

// Text is the script as read so far, with the aliases of the lines read
// expanded (positions of the statements handed out are offsets in it).
func (rd *Reader) Text() string { return rd.text }

// Close stops the parser; the Reader is not used after it.
func (rd *Reader) Close() {
	if rd.stop != nil {
		rd.stop()
		rd.stop = nil
	}
}

// restart parses again from offset from, skipping the first skip
// statements (already handed out).
func (rd *Reader) restart(from, skip int) {
	rd.Close()
	src := rd.text
	if from > 0 {
		// the text before from as blanks, so positions stay those of text
		b := []byte(src)
		for i := range from {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
		src = string(b)
	}
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	next, stop := iter.Pull2(p.StmtsSeq(strings.NewReader(src)))
	rd.pull, rd.stop = next, stop
	rd.from, rd.consumed = from, 0
	rd.buf, rd.err, rd.eof = nil, nil, false
	for range skip {
		if !rd.fill(1) {
			break
		}
		rd.buf = rd.buf[1:]
		rd.consumed++
	}
}

// fill parses until buf holds n statements; false when the parse ended
// first.
func (rd *Reader) fill(n int) bool {
	for len(rd.buf) < n {
		if rd.eof {
			return false
		}
		st, err, ok := rd.pull()
		switch {
		case !ok:
			rd.eof = true
			rd.Close()
		case err != nil:
			rd.err, rd.eof = err, true
			rd.Close()
		default:
			rd.buf = append(rd.buf, st)
		}
	}
	return true
}

// prepare readies statements handed out for running (after their
// positions are used: templates have none).
func (rd *Reader) prepare(stmts []*syntax.Stmt) {
	for _, st := range stmts {
		rd.noteAppend(st)
		Templates(st, rd.text)
		declWords(st, rd.text)
		rd.noteArith(st)
		rd.noteInlineIdx(st)
		Prepare(st)
		rd.noteKsh(st)
	}
}

func (rd *Reader) aliasesOn() bool {
	return rd.host.ExpandAliases()
}

// Next returns the next line's statements. A non-nil error is a syntax
// error on that line: the statements before its line run, then it is
// reported and reading ends. At the end it returns nil, nil.
func (rd *Reader) Next() ([]*syntax.Stmt, error) {
	rd.regions, rd.eligible, rd.parenTries = nil, nil, 0
	for subst := 0; ; subst++ {
		// the line: the first statement and those that begin on the line
		// where the one before them ends
		n := 0
		if rd.fill(1) {
			n = 1
			for rd.fill(n + 1) {
				if rd.buf[n].Pos().Line() > rd.buf[n-1].End().Line() {
					break
				}
				n++
			}
		}
		full := rd.buf[:n]
		group := full
		var err error
		if n == len(rd.buf) && rd.err != nil {
			el := errLine(rd.err)
			if n == 0 || el <= group[n-1].End().Line() {
				err = rd.err
				k := 0
				for k < n && group[k].End().Line() < el {
					k++
				}
				group = group[:k]
			}
		}
		if n == 0 && err == nil {
			return nil, nil
		}
		if subst < maxAliasSubst && (rd.aliasesOn() && rd.expandOne(full, err) || err != nil && (rd.parenRetry(full, err) || rd.emptySliceRetry(err) || rd.kshRetry(full, err) || rd.letRetry(full, err) || rd.appendRetry(full, err) || rd.hdocRetry(err) || rd.letParenRetry(err) || rd.emptyArithRetry(err) || rd.arithRetry(full, err) || rd.inlineIdxRetry(err) || rd.badIdxRetry(err))) {
			if len(group) > 0 {
				rd.restart(int(group[0].Pos().Offset()), 0)
			} else {
				rd.restart(rd.from, rd.consumed)
			}
			continue
		}
		if err != nil {
			rd.buf = nil
			rd.eof = true
			rd.Close()
			rd.prepare(group)
			return group, err
		}
		rd.buf = rd.buf[n:]
		rd.consumed += n
		if n > 0 {
			rd.lastEnd = int(group[n-1].End().Offset())
		}
		rd.prepare(group)
		return group, nil
	}
}

// expandOne expands the first alias in group (or, when the line does
// not parse, at the start of the statement that fails); false when there
// is none.
func (rd *Reader) expandOne(group []*syntax.Stmt, perr error) bool {
	cands := append([]int(nil), rd.eligible...)
	for _, st := range group {
		syntax.Walk(st, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
				cands = append(cands, int(c.Args[0].Pos().Offset()))
			}
			return true
		})
	}
	if perr != nil {
		// the failing statement's first word
		at := rd.lastEnd
		if len(group) > 0 {
			at = int(group[len(group)-1].End().Offset())
		}
		if p := skipSeparators(rd.text, at); p >= 0 {
			if w, _ := aliasWord(rd.text, p); w != "" && !syntax.IsKeyword(w) {
				cands = append(cands, p)
			}
		}
	}
	best, bestName, bestEnd := -1, "", 0
	for _, p := range cands {
		if best >= 0 && p >= best {
			continue
		}
		w, end := aliasWord(rd.text, p)
		if w == "" {
			continue
		}
		if _, ok := rd.host.Alias(w); !ok || rd.blocked(p, w) {
			continue
		}
		best, bestName, bestEnd = p, w, end
	}
	if best < 0 {
		return false
	}
	rd.substitute(best, bestEnd, bestName)
	return true
}

// blocked reports whether the word at p is inside text that name's own
// expansion put there.
func (rd *Reader) blocked(p int, name string) bool {
	for _, g := range rd.regions {
		if g.name == name && p >= g.from && p < g.to {
			return true
		}
	}
	return false
}

// substitute replaces the word at [p, end) with the text of alias name.
func (rd *Reader) substitute(p, end int, name string) {
	val, _ := rd.host.Alias(name)
	rd.text = rd.text[:p] + val + rd.text[end:]
	delta := len(val) - (end - p)
	shift := func(o int) int {
		if o >= end {
			return o + delta
		}
		return o
	}
	for i := range rd.regions {
		g := &rd.regions[i]
		if g.from > p {
			g.from = shift(g.from)
		}
		if g.to > p {
			g.to = shift(g.to)
		}
	}
	var el []int
	for _, o := range rd.eligible {
		if o != p {
			el = append(el, shift(o))
		}
	}
	rd.regions = append(rd.regions, aliasRegion{p, p + len(val), name})
	// the first word of the text is in command position too
	q := p
	for q < p+len(val) && (rd.text[q] == ' ' || rd.text[q] == '\t') {
		q++
	}
	if q < p+len(val) {
		el = append(el, q)
	}
	// text ending in a blank: the next word is checked as well
	if val != "" && (val[len(val)-1] == ' ' || val[len(val)-1] == '\t') {
		q := p + len(val)
		for q < len(rd.text) {
			if c := rd.text[q]; c == ' ' || c == '\t' {
				q++
			} else if strings.HasPrefix(rd.text[q:], "\\\n") {
				q += 2
			} else {
				break
			}
		}
		el = append(el, q)
	}
	rd.eligible = el
}

// aliasWord returns the word at p of text when it can name an alias (an
// unquoted literal) and where it ends, or "".
func aliasWord(text string, p int) (string, int) {
	if p < 0 || p >= len(text) {
		return "", 0
	}
	q := p
	for q < len(text) {
		c := text[q]
		if strings.IndexByte(" \t\n;&|()<>", c) >= 0 {
			break
		}
		if strings.IndexByte("'\"\\$`=", c) >= 0 {
			return "", 0
		}
		q++
	}
	return text[p:q], q
}

// skipSeparators returns the offset of the first word at or after at
// that begins a command (past blanks, comments, newlines and the
// operators that end a command), or -1.
func skipSeparators(text string, at int) int {
	p := at
	for p < len(text) {
		switch c := text[p]; {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|':
			p++
		case c == '#':
			for p < len(text) && text[p] != '\n' {
				p++
			}
		case strings.HasPrefix(text[p:], "\\\n"):
			p += 2
		default:
			return p
		}
	}
	return -1
}

// maxParenTries bounds the (( read again as ( ( in one line.
const maxParenTries = 16

// parenRetry handles a line that fails to parse inside "((" or "$((":
// bash reads ((...)) as arithmetic only when it closes with "))", else as
// nested subshells (and $((...)) as a command substitution of a
// subshell). The nearest "((" before the error is split as "( (" when the
// line then parses further; false when no split helps.
func (rd *Reader) parenRetry(full []*syntax.Stmt, perr error) bool {
	start, errOff, ok := rd.errSpan(full, perr)
	if !ok {
		return false
	}
	for i := min(errOff, len(rd.text)-2); i >= start && rd.parenTries < maxParenTries; i-- {
		if rd.text[i] != '(' || rd.text[i+1] != '(' || closesDouble(rd.text[i+2:]) {
			continue
		}
		rd.parenTries++
		t := rd.text[:i+1] + " " + rd.text[i+1:]
		if off := firstErrOffset(t[start:]); off < 0 || start+off > errOff+1 {
			rd.text = t
			return true
		}
	}
	return false
}

// letRetry handles a let command that fails to parse: mvdan's parser
// reads let's arguments as arithmetic (a comment after them, for one,
// fails), bash as words of a builtin. The failing statement's let
// becomes \let, a plain command running the same builtin.
func (rd *Reader) letRetry(full []*syntax.Stmt, perr error) bool {
	errOff := errOffset(perr)
	at := rd.lastEnd
	start := at
	if len(full) > 0 {
		start = int(full[0].Pos().Offset())
		at = int(full[len(full)-1].End().Offset())
	}
	cands := []int{skipSeparators(rd.text, at)}
	for _, st := range full {
		if lc, ok := st.Cmd.(*syntax.LetClause); ok && lc.Pos().Line() == errLine(perr) {
			cands = append(cands, int(lc.Pos().Offset()))
		}
	}
	for _, p := range cands {
		if p < 0 || errOff < p {
			continue
		}
		if w, _ := aliasWord(rd.text, p); w != "let" {
			continue
		}
		t := rd.text[:p] + `\` + rd.text[p:]
		if off := firstErrOffset(t[start:]); off < 0 || start+off > errOff+1 {
			rd.text = t
			return true
		}
	}
	return false
}

// errOffset is the offset of a parse error, or -1.
func errOffset(err error) int {
	var pe syntax.ParseError
	var le syntax.LangError
	switch {
	case errors.As(err, &pe):
		return int(pe.Pos.Offset())
	case errors.As(err, &le):
		return int(le.Pos.Offset())
	}
	return -1
}

// firstErrOffset parses src and returns the offset of its error, or -1.
func firstErrOffset(src string) int {
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err == nil {
		return -1
	}
	if o := errOffset(err); o >= 0 {
		return o
	}
	return len(src)
}

// closesDouble reports whether the text after "((" closes with "))" (an
// arithmetic command or expansion for bash) rather than with ")" and
// something else before the last ")" (nested subshells).
func closesDouble(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\'':
			if j := strings.IndexByte(s[i+1:], '\''); j >= 0 {
				i += j + 1
			}
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
				continue
			}
			return i+1 < len(s) && s[i+1] == ')'
		}
	}
	return false
}

// noteKsh records the text of the ${...} in st that kshRetry replaced.
func (rd *Reader) noteKsh(st *syntax.Stmt) {
	if len(rd.ksh) == 0 {
		return
	}
	syntax.Walk(st, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CmdSubst); ok && c.TempFile {
			if t, ok := rd.ksh[int(c.Pos().Offset())]; ok {
				rd.host.KshSubst(c, t)
			}
		}
		return true
	})
}

// errSpan gives where the statements that failed to parse start (the
// first of full, else the end of the last statement handed out) and the
// parse error's offset; ok is false when the error lies outside the text
// or before that start, where no retry applies.
func (rd *Reader) errSpan(full []*syntax.Stmt, perr error) (start, errOff int, ok bool) {
	errOff = errOffset(perr)
	start = rd.lastEnd
	if len(full) > 0 {
		start = int(full[0].Pos().Offset())
	}
	return start, errOff, errOff >= 0 && errOff <= len(rd.text) && start <= errOff
}

// kshRetry handles a line that fails to parse inside "${": bash reads
// ${...} to its closing brace and fails when it runs it (bad
// substitution). The ${...} around the error becomes "${ :;}" padded to
// its length, whose expansion reports the original text.
func (rd *Reader) kshRetry(full []*syntax.Stmt, perr error) bool {
	start, errOff, ok := rd.errSpan(full, perr)
	if !ok {
		return false
	}
	// blank out ${...} at i; false when it is too short to hold ${ :;}
	blank := func(t string, i int, orig map[int]string) (string, bool) {
		end := closingBrace(t, i+2)
		if end < 0 || end-i+1 < len("${ :;}") {
			return t, false
		}
		b := []byte(t[i : end+1])
		for k := range b {
			if b[k] != '\n' {
				b[k] = ' '
			}
		}
		copy(b, "${ :;")
		b[len(b)-1] = '}'
		orig[i] = t[i : end+1]
		return t[:i] + string(b) + t[end+1:], true
	}
	accept := func(t string, orig map[int]string) bool {
		if off := firstErrOffset(t[start:]); off >= 0 && start+off <= errOff {
			return false
		}
		if rd.ksh == nil {
			rd.ksh = map[int]string{}
		}
		for k, v := range orig {
			rd.ksh[k] = v
		}
		rd.text = t
		return true
	}
	// every ${ cmd;} and ${|cmd;} of mksh up to the error (mvdan's reading
	// of them may run past their closing brace), the innermost ${...}
	// around the error, or both
	forms := func(t string, orig map[int]string) string {
		for i := start; i < min(errOff+1, len(t)-2); i++ {
			_, seen := orig[i]
			if _, done := rd.ksh[i]; !done && !seen && t[i] == '$' && t[i+1] == '{' && strings.IndexByte(" \t\n|", t[i+2]) >= 0 {
				t, _ = blank(t, i, orig)
			}
		}
		return t
	}
	inner := -1
	for i := min(errOff, len(rd.text)-2); i >= start; i-- {
		if _, done := rd.ksh[i]; done || rd.text[i] != '$' || rd.text[i+1] != '{' {
			continue
		}
		if end := closingBrace(rd.text, i+2); end >= errOff {
			inner = i
			break
		}
	}
	orig := map[int]string{}
	if t := forms(rd.text, orig); len(orig) > 0 && accept(t, orig) {
		return true
	}
	if inner < 0 {
		return false
	}
	orig = map[int]string{}
	t, ok := blank(rd.text, inner, orig)
	if !ok {
		// too short to hold ${ :;} (${a&}): the placeholder replaces it,
		// and the text after it moves
		end := closingBrace(rd.text, inner+2)
		if end < 0 {
			return false
		}
		const ph = "${ :;}"
		t = rd.text[:inner] + ph + rd.text[end+1:]
		if off := firstErrOffset(t[start:]); off >= 0 && start+off <= errOff {
			return false
		}
		rd.shiftAfter(end+1, len(ph)-(end+1-inner))
		if rd.ksh == nil {
			rd.ksh = map[int]string{}
		}
		rd.ksh[inner] = rd.text[inner : end+1]
		rd.text = t
		return true
	}
	if accept(t, orig) {
		return true
	}
	return accept(forms(t, orig), orig)
}

// closingBrace returns the offset of the "}" that closes the "${" before
// from, or -1.
func closingBrace(s string, from int) int {
	depth := 0
	for i := from; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\'':
			if j := strings.IndexByte(s[i+1:], '\''); j >= 0 {
				i += j + 1
			}
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// appendRetry handles an array literal's [k]+=v, which mvdan's parser
// refuses: the nearest "]+=" before the error is read as "]=" and the
// element marked as appending.
func (rd *Reader) appendRetry(full []*syntax.Stmt, perr error) bool {
	var pe syntax.ParseError
	if !errors.As(perr, &pe) || !strings.Contains(pe.Text, "must be followed by `=`") {
		return false
	}
	start, errOff, ok := rd.errSpan(full, perr)
	if !ok {
		return false
	}
	// the error is at the element's [ (or after its ]): the nearest ]+=
	// after it on its line, else before it
	i := -1
	line := rd.text[errOff:]
	if nl := strings.IndexByte(line, '\n'); nl >= 0 {
		line = line[:nl]
	}
	if k := strings.Index(line, "]+="); k >= 0 {
		i = errOff + k
	} else if k := strings.LastIndex(rd.text[start:errOff], "]+="); k >= 0 {
		i = start + k
	}
	if i < 0 {
		return false
	}
	if rd.appends == nil {
		rd.appends = map[int]bool{}
	}
	// offsets after i move back one
	moved := map[int]bool{}
	for o := range rd.appends {
		if o > i {
			o--
		}
		moved[o] = true
	}
	moved[i] = true
	rd.appends = moved
	rd.text = rd.text[:i+1] + rd.text[i+2:]
	return true
}

// noteAppend tells the host about the elements of st written [k]+=v.
func (rd *Reader) noteAppend(st *syntax.Stmt) {
	if len(rd.appends) == 0 {
		return
	}
	syntax.Walk(st, func(n syntax.Node) bool {
		if e, ok := n.(*syntax.ArrayElem); ok && e.Index != nil {
			o := int(e.Index.End().Offset())
			if k := strings.IndexByte(rd.text[min(o, len(rd.text)):], ']'); k >= 0 && rd.appends[o+k] {
				rd.host.AppendElem(e)
			}
		}
		return true
	})
}

// shiftAfter moves the offsets the reader keeps that are at or after at
// by delta: text of that length was put in (or taken out) before them.
func (rd *Reader) shiftAfter(at, delta int) {
	shift := func(o int) int {
		if o >= at {
			return o + delta
		}
		return o
	}
	if len(rd.ksh) > 0 {
		m := make(map[int]string, len(rd.ksh))
		for o, v := range rd.ksh {
			m[shift(o)] = v
		}
		rd.ksh = m
	}
	if len(rd.ariths) > 0 {
		m := make(map[int]string, len(rd.ariths))
		for o, v := range rd.ariths {
			m[shift(o)] = v
		}
		rd.ariths = m
	}
	if len(rd.inlineIdx) > 0 {
		m := make(map[int][2]string, len(rd.inlineIdx))
		for o, v := range rd.inlineIdx {
			m[shift(o)] = v
		}
		rd.inlineIdx = m
	}
	if len(rd.badIdx) > 0 {
		m := make(map[int]string, len(rd.badIdx))
		for o, v := range rd.badIdx {
			m[shift(o)] = v
		}
		rd.badIdx = m
	}
	if len(rd.appends) > 0 {
		m := make(map[int]bool, len(rd.appends))
		for o := range rd.appends {
			m[shift(o)] = true
		}
		rd.appends = m
	}
	for i := range rd.regions {
		rd.regions[i].from = shift(rd.regions[i].from)
		rd.regions[i].to = shift(rd.regions[i].to)
	}
	for i, o := range rd.eligible {
		rd.eligible[i] = shift(o)
	}
}

// hdocRetry handles a here-document word in double quotes that holds an
// expansion ("$@"), which mvdan's parser refuses: bash takes the quoted
// text as the delimiter, as written, and reads the body unexpanded. The
// double quotes become single quotes (same text, no expansion), when the
// word holds no single quote or backslash.
func (rd *Reader) hdocRetry(perr error) bool {
	var pe syntax.ParseError
	if !errors.As(perr, &pe) || !strings.Contains(pe.Text, "expansions not allowed in heredoc words") {
		return false
	}
	// the error is at the expansion: the word's quote is before it
	i := errOffset(perr)
	if i < 0 || i >= len(rd.text) {
		return false
	}
	ls := strings.LastIndexByte(rd.text[:i], '\n') + 1
	i = strings.LastIndexByte(rd.text[:i+1], '"')
	if i < ls || !strings.HasSuffix(strings.TrimRight(rd.text[ls:i], " \t"), "<<") {
		return false
	}
	j := strings.IndexAny(rd.text[i+1:], "\"\\'`\n")
	if j < 0 || rd.text[i+1+j] != '"' {
		return false
	}
	j += i + 1
	if j+1 < len(rd.text) && strings.IndexByte(" \t\n;&|<>)", rd.text[j+1]) < 0 {
		return false // more word after the quotes
	}
	rd.text = rd.text[:i] + "'" + rd.text[i+1:j] + "'" + rd.text[j+1:]
	return true
}

// letParenRetry handles let x=( 1 ): bash reads x=( 1 ) as one word of
// the let builtin (the parentheses of a compound assignment), mvdan's
// parser fails at its "(". The word is put in single quotes, which let's
// arithmetic drops.
func (rd *Reader) letParenRetry(perr error) bool {
	i := errOffset(perr)
	if i <= 0 || i >= len(rd.text) || rd.text[i] != '(' || rd.text[i-1] != '=' {
		return false
	}
	ls := strings.LastIndexByte(rd.text[:i], '\n') + 1
	ws := strings.LastIndexAny(rd.text[ls:i], " \t") + ls + 1
	if strings.ContainsAny(rd.text[ws:i], "'\"\\$`") {
		return false
	}
	// the statement is a let
	if f := strings.Fields(rd.text[ls:ws]); len(f) == 0 || (f[0] != "let" && f[0] != `\let`) {
		return false
	}
	depth, end := 0, -1
	for k := i; k < len(rd.text) && end < 0; k++ {
		switch rd.text[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				end = k
			}
		case '\'', '\n', '\\':
			return false
		}
	}
	if end < 0 {
		return false
	}
	rd.shiftAfter(end+1, 1)
	rd.shiftAfter(ws, 1)
	rd.text = rd.text[:ws] + "'" + rd.text[ws:end+1] + "'" + rd.text[end+1:]
	return true
}

// emptySliceRetry handles ${x: }, ${a[@]: : }, ${x::} and ${x:1:}: an
// offset or length of blanks or nothing, which mvdan's parser refuses
// and bash evaluates as 0 (only ${x:}, nothing after the one colon, is a
// bad substitution: kshRetry's). A 0 is written in the expression's
// first blank (or put in).
func (rd *Reader) emptySliceRetry(perr error) bool {
	var pe syntax.ParseError
	if !errors.As(perr, &pe) || !strings.HasSuffix(pe.Text, "must be followed by an expression") {
		return false
	}
	i := errOffset(perr)
	if i <= 0 || i >= len(rd.text) || rd.text[i] != ':' {
		return false
	}
	j := i + 1
	for j < len(rd.text) && (rd.text[j] == ' ' || rd.text[j] == '\t') {
		j++
	}
	if j >= len(rd.text) || (rd.text[j] != '}' && rd.text[j] != ':') {
		return false
	}
	// the colon is a slice's: ${name: or ${name[...]: or ${@: before it
	open := strings.LastIndex(rd.text[:i], "${")
	if open < 0 || !sliceHead(rd.text[open+2:i]) {
		return false
	}
	if j == i+1 && rd.text[j] == '}' && !strings.Contains(rd.text[open+2:i], ":") {
		return false // ${x:}
	}
	if j > i+1 {
		rd.text = rd.text[:i+1] + "0" + rd.text[i+2:]
		return true
	}
	rd.shiftAfter(i+1, 1)
	rd.text = rd.text[:i+1] + "0" + rd.text[i+1:]
	return true
}

// sliceHead reports whether s, the text between "${" and a colon, is a
// parameter (a name, a special or positional one, an element a[...]),
// optionally followed by a slice's offset (":off").
func sliceHead(s string) bool {
	if k := strings.IndexByte(s, ':'); k >= 0 {
		s = s[:k]
	}
	if k := strings.IndexByte(s, '['); k > 0 && strings.HasSuffix(s, "]") {
		s = s[:k]
	}
	if s == "" {
		return false
	}
	if len(s) == 1 && strings.IndexByte("@*#?-$!0123456789", s[0]) >= 0 {
		return true
	}
	return syntax.ValidName(s) || allDigits(s)
}

func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// emptyArithRetry handles an empty (( )) or $(( )), which mvdan's parser
// refuses: bash evaluates the empty expression as 0. A 0 is written in
// its first blank (or put in).
func (rd *Reader) emptyArithRetry(perr error) bool {
	var pe syntax.ParseError
	if !errors.As(perr, &pe) || !strings.HasSuffix(pe.Text, "must be followed by an expression") {
		return false
	}
	i := errOffset(perr)
	if i < 0 || i >= len(rd.text) {
		return false
	}
	switch {
	case strings.HasPrefix(rd.text[i:], "$(("):
		i += 3
	case strings.HasPrefix(rd.text[i:], "(("):
		i += 2
	default:
		return false
	}
	j := i
	for j < len(rd.text) && (rd.text[j] == ' ' || rd.text[j] == '\t') {
		j++
	}
	if !strings.HasPrefix(rd.text[j:], "))") {
		return false
	}
	if j > i {
		rd.text = rd.text[:i] + "0" + rd.text[i+1:]
		return true
	}
	rd.shiftAfter(i, 1)
	rd.text = rd.text[:i] + "0" + rd.text[i:]
	return true
}

// arithRetry handles a line that fails to parse inside ((...)) or
// $((...)) closed with "))": bash reads the text to "))" and evaluates it
// when it runs (a syntax error in expression then). The text becomes 0
// (newlines kept) and the expression, when the statement is handed out,
// the text as a template: its expansions and the rest as literals.
func (rd *Reader) arithRetry(full []*syntax.Stmt, perr error) bool {
	start, errOff, ok := rd.errSpan(full, perr)
	if !ok {
		return false
	}
	for i := min(errOff, len(rd.text)-2); i >= start; i-- {
		if rd.text[i] != '(' || rd.text[i+1] != '(' {
			continue
		}
		if _, done := rd.ariths[i]; done {
			continue
		}
		end := closeDoubleAt(rd.text, i+2)
		if end < errOff || end == i+2 {
			continue
		}
		body := rd.text[i+2 : end]
		if strings.ContainsAny(body, "\"'\\") {
			return false
		}
		if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader(body)); err != nil {
			return false
		}
		b := []byte(body)
		zero := -1
		for k := range b {
			if b[k] != '\n' {
				b[k] = ' '
				if zero < 0 {
					zero = k
				}
			}
		}
		if zero < 0 {
			return false
		}
		b[zero] = '0'
		t := rd.text[:i+2] + string(b) + rd.text[end:]
		if off := firstErrOffset(t[start:]); off >= 0 && start+off <= end {
			return false
		}
		if rd.ariths == nil {
			rd.ariths = map[int]string{}
		}
		rd.ariths[i] = body
		rd.text = t
		return true
	}
	return false
}

// closeDoubleAt returns the offset of the "))" that closes the "((" before
// from, or -1 when a single ")" closes it.
func closeDoubleAt(s string, from int) int {
	depth := 0
	for i := from; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
				continue
			}
			if i+1 < len(s) && s[i+1] == ')' {
				return i
			}
			return -1
		}
	}
	return -1
}

// noteArith gives the ((...)) and $((...)) of st that arithRetry read as
// 0 their text back, as a template.
func (rd *Reader) noteArith(st *syntax.Stmt) {
	if len(rd.ariths) == 0 {
		return
	}
	tmpl := func(at int) syntax.ArithmExpr {
		body, ok := rd.ariths[at]
		if !ok {
			return nil
		}
		w, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader(body))
		if err != nil || w == nil {
			return nil
		}
		Templates(w, body)
		return w
	}
	syntax.Walk(st, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ArithmCmd:
			if x := tmpl(int(n.Left.Offset())); x != nil {
				n.X = x
			}
		case *syntax.ArithmExp:
			if x := tmpl(int(n.Left.Offset()) + 1); x != nil && !n.Bracket {
				n.X = x
			}
		}
		return true
	})
}

// inlineIdxRetry handles a[i]=v before a command's name, which mvdan's
// parser refuses: bash takes it for an assignment and, when the command
// runs, reports that a[i] is not a valid identifier. a[i] is read as a
// name of its length (a____), then given its name and index back.
func (rd *Reader) inlineIdxRetry(perr error) bool {
	var pe syntax.ParseError
	if !errors.As(perr, &pe) || pe.Text != "inline variables cannot be arrays" {
		return false
	}
	i := errOffset(perr)
	if i < 0 || i >= len(rd.text) {
		return false
	}
	lb := strings.IndexByte(rd.text[i:], '[')
	if lb <= 0 || !syntax.ValidName(rd.text[i:i+lb]) {
		return false
	}
	lb += i
	rb := strings.IndexByte(rd.text[lb:], ']')
	if rb < 0 {
		return false
	}
	rb += lb
	idx := rd.text[lb+1 : rb]
	if strings.ContainsAny(idx, "\n'\"\\$`[") || !(strings.HasPrefix(rd.text[rb+1:], "=") || strings.HasPrefix(rd.text[rb+1:], "+=")) {
		return false
	}
	if rd.inlineIdx == nil {
		rd.inlineIdx = map[int][2]string{}
	}
	rd.inlineIdx[i] = [2]string{rd.text[i:lb], idx}
	rd.text = rd.text[:lb] + strings.Repeat("_", rb+1-lb) + rd.text[rb+1:]
	return true
}

// noteInlineIdx gives the assignments of st that inlineIdxRetry renamed
// their name and index back (the index as its text).
func (rd *Reader) noteInlineIdx(st *syntax.Stmt) {
	if len(rd.inlineIdx) == 0 && len(rd.badIdx) == 0 {
		return
	}
	syntax.Walk(st, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok {
			for _, as := range c.Assigns {
				if as.Name == nil {
					continue
				}
				if as.Index != nil {
					if v, ok := rd.badIdx[int(as.Index.Pos().Offset())]; ok {
						as.Index = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: v}}}
					}
				}
				if v, ok := rd.inlineIdx[int(as.Name.Pos().Offset())]; ok {
					as.Name.Value = v[0]
					as.Index = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: v[1]}}}
				}
			}
		}
		return true
	})
}

// badIdxRetry handles an assignment a[i]=v whose index does not parse as
// arithmetic (a[5 # 1]=): bash evaluates it when it runs, and fails
// there. The index is read as 0 (padded with blanks) and given its text
// back as the index's template.
func (rd *Reader) badIdxRetry(perr error) bool {
	var pe syntax.ParseError
	if !errors.As(perr, &pe) || !strings.Contains(pe.Text, "arithmetic") {
		return false
	}
	e := errOffset(perr)
	if e < 0 || e >= len(rd.text) {
		return false
	}
	ls := strings.LastIndexByte(rd.text[:e], '\n') + 1
	lb := strings.LastIndexByte(rd.text[ls:e], '[')
	if lb < 0 {
		return false
	}
	lb += ls
	ns := lb
	for ns > ls && (rd.text[ns-1] == '_' || rd.text[ns-1] >= 'a' && rd.text[ns-1] <= 'z' || rd.text[ns-1] >= 'A' && rd.text[ns-1] <= 'Z' || rd.text[ns-1] >= '0' && rd.text[ns-1] <= '9') {
		ns--
	}
	if ns == lb || !syntax.ValidName(rd.text[ns:lb]) || ns > ls && strings.IndexByte(" \t;&|(", rd.text[ns-1]) < 0 {
		return false
	}
	rb := strings.IndexByte(rd.text[lb:], ']')
	if rb < 0 {
		return false
	}
	rb += lb
	idx := rd.text[lb+1 : rb]
	if rb < e || idx == "" || strings.ContainsAny(idx, "\n'\"\\$`[") || !(strings.HasPrefix(rd.text[rb+1:], "=") || strings.HasPrefix(rd.text[rb+1:], "+=")) {
		return false
	}
	if rd.badIdx == nil {
		rd.badIdx = map[int]string{}
	}
	rd.badIdx[lb+1] = idx
	rd.text = rd.text[:lb+1] + "0" + strings.Repeat(" ", len(idx)-1) + rd.text[rb:]
	return true
}

// declWords splits the arguments of declaration builtins in st that
// mvdan's parser read as a[i]=v with blanks in i (declare a[ a[2]=3 ]=Y):
// bash reads words there, split at the blanks. Arguments with quotes or
// expansions stay as they are.
func declWords(st *syntax.Stmt, src string) {
	syntax.Walk(st, func(n syntax.Node) bool {
		d, ok := n.(*syntax.DeclClause)
		if !ok {
			return true
		}
		var args []*syntax.Assign
		for _, as := range d.Args {
			a, b := int(as.Pos().Offset()), int(as.End().Offset())
			if as.Naked || as.Index == nil || a < 0 || b > len(src) || a >= b {
				args = append(args, as)
				continue
			}
			t := src[a:b]
			if !strings.ContainsAny(t, " \t") || strings.ContainsAny(t, "\n'\"\\$`") {
				args = append(args, as)
				continue
			}
			for _, f := range strings.Fields(t) {
				args = append(args, declWord(f))
			}
		}
		d.Args = args
		return true
	})
}

// declWord is the argument f of a declaration builtin: name=v, name+=v,
// name[i]=v (i as its template) or a plain word.
func declWord(f string) *syntax.Assign {
	lit := func(s string) *syntax.Word { return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}} }
	plain := &syntax.Assign{Naked: true, Value: lit(f)}
	eq := strings.IndexByte(f, '=')
	if eq <= 0 {
		return plain
	}
	lhs, as := f[:eq], &syntax.Assign{Value: lit(f[eq+1:])}
	if strings.HasSuffix(lhs, "+") {
		lhs, as.Append = lhs[:len(lhs)-1], true
	}
	if lb := strings.IndexByte(lhs, '['); lb > 0 && strings.HasSuffix(lhs, "]") && lb < len(lhs)-1 {
		as.Index = lit(lhs[lb+1 : len(lhs)-1])
		lhs = lhs[:lb]
	}
	if !syntax.ValidName(lhs) || strings.ContainsAny(lhs, "[]") {
		return plain
	}
	as.Name = &syntax.Lit{Value: lhs}
	return as
}
