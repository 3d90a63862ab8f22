package sed

// sed's script parser: turns the -e/-f chunks into a flat list of commands
// with resolved blocks and branches. Errors read like GNU's:
// "-e expression #1, char 5: unterminated `s' command".

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentenkit/agentenkit/shell/posixre"
)

// sedAddrKind is the kind of an address.
type sedAddrKind uint8

const (
	sedAddrLine  sedAddrKind = iota + 1 // N
	sedAddrLast                         // $
	sedAddrRegex                        // /re/
	sedAddrStep                         // first~step
	sedAddrZero                         // 0 (only as 0,/re/)
	sedAddrPlus                         // addr1,+N
	sedAddrMult                         // addr1,~N
)

type sedAddr struct {
	kind sedAddrKind
	n    int64 // line, first, +N or ~N
	step int64
	re   *sedRegex
}

// sedRegex is a compiled pattern; nil re means "the last regex used".
// cont is "(?s:.)(?:re)", used to continue a search at an offset with one
// character of left context (for ^, \b and the like).
type sedRegex struct {
	re   *regexp.Regexp
	cont *regexp.Regexp
}

// sedReplPart is one piece of an s replacement: literal text, a group
// (0 for &), or a case conversion (\U \L \u \l \E).
type sedReplPart struct {
	lit   string
	group int // -1 none
	conv  byte
}

type sedCmd struct {
	a1, a2 *sedAddr
	negate bool
	name   byte
	// range state of a two-address command
	active   bool
	end      int64
	zeroDone bool

	text     string // a i c, with its final newline
	label    string // b t T :
	target   int    // jump target; len(cmds) is the end of the script
	fname    string // r R w W, s///w
	intArg   int    // q Q exit code, l width (-1 not given)
	blockEnd int    // for '{': index of the matching '}'

	// s
	re     *sedRegex
	repl   []sedReplPart
	global bool
	nth    int
	print  int
	// y
	ymap map[rune]rune
}

// sedProg is a compiled script.
type sedProg struct {
	cmds []*sedCmd
	// quiet is set by a "#n" first line.
	quiet bool
	// wfiles lists the files opened by w commands, in order.
	wfiles []string
}

type sedParser struct {
	s      string
	i      int
	o      *sedOpts
	starts []int // offset of each chunk in s
	prog   *sedProg
	blocks []int
	// haveRE: a regex was compiled before (for the empty regex).
	haveRE bool
}

// sedCompile parses o's script chunks.
func sedCompile(o *sedOpts) (*sedProg, error) {
	p := &sedParser{o: o, prog: &sedProg{}}
	var b strings.Builder
	for k, ch := range o.chunks {
		if k > 0 {
			b.WriteByte('\n')
		}
		p.starts = append(p.starts, b.Len())
		b.WriteString(ch.text)
	}
	p.s = b.String()
	if len(o.chunks) > 0 {
		first := o.chunks[0].text
		if first == "#n" || strings.HasPrefix(first, "#n\n") {
			p.prog.quiet = true
		}
	}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.prog, nil
}

// errf returns a script error located at the parser's position.
func (p *sedParser) errf(format string, a ...any) error {
	return p.errAt(p.i, format, a...)
}

// errEnd returns an error located at the end of the current chunk (GNU
// reports unterminated commands there).
func (p *sedParser) errEnd(format string, a ...any) error {
	pos := len(p.s)
	for k, st := range p.starts {
		if st <= p.i && k < len(p.o.chunks) {
			pos = st + len(p.o.chunks[k].text)
		}
	}
	return p.errAt(pos, format, a...)
}

func (p *sedParser) errAt(pos int, format string, a ...any) error {
	msg := fmt.Sprintf(format, a...)
	k := 0
	for j, st := range p.starts {
		if st <= pos {
			k = j
		}
	}
	if len(p.o.chunks) == 0 {
		return &sedFail{status: 1, msg: msg}
	}
	ch := p.o.chunks[k]
	off := pos - p.starts[k]
	if off > len(ch.text) {
		off = len(ch.text)
	}
	if ch.file != "" {
		line := 1 + strings.Count(ch.text[:off], "\n")
		return &sedFail{status: 1, msg: fmt.Sprintf("file %s line %d: %s", ch.file, line, msg)}
	}
	return &sedFail{status: 1, msg: fmt.Sprintf("-e expression #%d, char %d: %s", ch.expr, off, msg)}
}

func (p *sedParser) eof() bool { return p.i >= len(p.s) }

func (p *sedParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *sedParser) skipSpace() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *sedParser) parse() error {
	for {
		for p.i < len(p.s) && strings.IndexByte(" \t\n;", p.s[p.i]) >= 0 {
			p.i++
		}
		if p.eof() {
			break
		}
		if err := p.command(); err != nil {
			return err
		}
	}
	if len(p.blocks) > 0 {
		return p.errAt(0, "unmatched `{'")
	}
	labels := map[string]int{}
	for i, c := range p.prog.cmds {
		if c.name == ':' {
			if _, dup := labels[c.label]; dup {
				return &sedFail{status: 1, msg: fmt.Sprintf("-e expression #1, char 0: duplicate label `%s'", c.label)}
			}
			labels[c.label] = i
		}
	}
	for _, c := range p.prog.cmds {
		switch c.name {
		case 'b', 't', 'T':
			if c.label == "" {
				c.target = len(p.prog.cmds)
				continue
			}
			t, ok := labels[c.label]
			if !ok {
				return &sedFail{status: 4, msg: fmt.Sprintf("can't find label for jump to `%s'", c.label)}
			}
			c.target = t
		}
	}
	return nil
}

// command parses one command with its addresses.
func (p *sedParser) command() error {
	cmd := &sedCmd{intArg: -1, nth: 0}
	if p.peek() == '#' {
		for p.i < len(p.s) && p.s[p.i] != '\n' {
			p.i++
		}
		return nil
	}
	a1, err := p.address(false)
	if err != nil {
		return err
	}
	cmd.a1 = a1
	if a1 != nil {
		p.skipSpace()
		if p.peek() == ',' {
			p.i++
			p.skipSpace()
			a2, err := p.address(true)
			if err != nil {
				return err
			}
			if a2 == nil {
				if !p.eof() {
					p.i++
				}
				return p.errf("unexpected `,'")
			}
			cmd.a2 = a2
		}
	}
	p.skipSpace()
	for p.peek() == '!' {
		if cmd.negate {
			p.i++
			return p.errf("multiple `!'s")
		}
		cmd.negate = true
		p.i++
		p.skipSpace()
	}
	if p.eof() {
		return p.errf("missing command")
	}
	cmd.name = p.s[p.i]
	p.i++
	if a1 != nil && a1.kind == sedAddrZero && (cmd.a2 == nil || cmd.a2.kind != sedAddrRegex) {
		return p.errf("invalid usage of line address 0")
	}
	noAddr := func() error {
		if cmd.a1 != nil {
			return p.errf("%c doesn't want any addresses", cmd.name)
		}
		return nil
	}
	oneAddr := func() error {
		if cmd.a2 != nil {
			return p.errf("command only uses one address")
		}
		return nil
	}
	switch cmd.name {
	case '{':
		p.blocks = append(p.blocks, len(p.prog.cmds))
		p.prog.cmds = append(p.prog.cmds, cmd)
		return nil
	case '}':
		if len(p.blocks) == 0 {
			return p.errf("unexpected `}'")
		}
		if cmd.a1 != nil || cmd.negate {
			return p.errf("unexpected `}'")
		}
		open := p.blocks[len(p.blocks)-1]
		p.blocks = p.blocks[:len(p.blocks)-1]
		p.prog.cmds[open].blockEnd = len(p.prog.cmds)
		p.prog.cmds = append(p.prog.cmds, cmd)
		return p.endCommand()
	case '#':
		return p.errf("comments don't accept any addresses")
	case ':':
		if cmd.a1 != nil {
			return p.errf(": doesn't want any addresses")
		}
		p.skipSpace()
		cmd.label = p.readLabel()
		if cmd.label == "" || cmd.label == "#" {
			return p.errf("\":\" lacks a label")
		}
	case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
	case 'l', 'L':
		if cmd.name == 'L' {
			return p.errf("unknown command: `L'")
		}
		p.skipSpace()
		if n, ok := p.readNumber(); ok {
			cmd.intArg = n
		}
	case 'q', 'Q':
		if err := oneAddr(); err != nil {
			return err
		}
		p.skipSpace()
		cmd.intArg = 0
		if n, ok := p.readNumber(); ok {
			cmd.intArg = n
		}
	case 'a', 'i', 'c':
		text, err := p.readText()
		if err != nil {
			return err
		}
		cmd.text = text
		p.prog.cmds = append(p.prog.cmds, cmd)
		return nil
	case 'b', 't', 'T':
		p.skipSpace()
		cmd.label = p.readLabel()
	case 'r', 'R', 'w', 'W':
		name, err := p.readFilename()
		if err != nil {
			return err
		}
		cmd.fname = name
		if cmd.name == 'w' || cmd.name == 'W' {
			p.prog.wfiles = append(p.prog.wfiles, name)
		}
		p.prog.cmds = append(p.prog.cmds, cmd)
		return nil
	case 's':
		if err := p.substitute(cmd); err != nil {
			return err
		}
		if cmd.fname != "" {
			p.prog.cmds = append(p.prog.cmds, cmd)
			return nil
		}
	case 'y':
		if err := p.transliterate(cmd); err != nil {
			return err
		}
	case 'v':
		p.skipSpace()
		p.readLabel()
		if err := noAddr(); err != nil {
			return err
		}
	case 'e':
		return p.errf("`e' command not supported")
	default:
		return p.errf("unknown command: `%c'", cmd.name)
	}
	p.prog.cmds = append(p.prog.cmds, cmd)
	return p.endCommand()
}

// endCommand checks that only spaces precede the command's end: a ';',
// a newline, a '}', a '#' or the end of the script.
func (p *sedParser) endCommand() error {
	p.skipSpace()
	if p.eof() {
		return nil
	}
	switch p.s[p.i] {
	case ';', '\n':
		p.i++
		return nil
	case '}', '#':
		return nil
	}
	p.i++
	return p.errf("extra characters after command")
}

func (p *sedParser) readNumber() (int, bool) {
	st := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	if st == p.i {
		return 0, false
	}
	n, err := strconv.Atoi(p.s[st:p.i])
	if err != nil {
		n = 1<<31 - 1
	}
	return n, true
}

// readLabel reads a label up to a newline, ';', '}' or a blank.
func (p *sedParser) readLabel() string {
	st := p.i
	for p.i < len(p.s) && strings.IndexByte("\n; \t}", p.s[p.i]) < 0 {
		p.i++
	}
	return p.s[st:p.i]
}

// readFilename reads the rest of the line as a file name.
func (p *sedParser) readFilename() (string, error) {
	p.skipSpace()
	st := p.i
	for p.i < len(p.s) && p.s[p.i] != '\n' {
		p.i++
	}
	name := p.s[st:p.i]
	if name == "" {
		return "", p.errf("missing filename in r/R/w/W commands")
	}
	return name, nil
}

// readText reads the text of a, i or c: "a text" (GNU one-line form) or
// "a\" newline text, lines continued by a trailing backslash.
func (p *sedParser) readText() (string, error) {
	p.skipSpace()
	if p.eof() {
		return "", p.errf("expected \\ after `a', `c' or `i'")
	}
	if p.s[p.i] == '\\' {
		p.i++
		if p.eof() {
			return "", nil
		}
		if p.peek() == '\n' {
			p.i++
		}
	}
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '\n' {
			p.i++
			break
		}
		if c == '\\' {
			p.i++
			if p.eof() {
				break
			}
			if r, n, ok := posixre.CharEscape(p.s[p.i-1:]); ok {
				b.WriteRune(r)
				p.i += n - 1
				continue
			}
			b.WriteByte(p.s[p.i])
			p.i++
			continue
		}
		b.WriteByte(c)
		p.i++
	}
	return b.String() + "\n", nil
}

// address parses an address if one starts at p.i. second selects the forms
// allowed after a comma (+N, ~N).
func (p *sedParser) address(second bool) (*sedAddr, error) {
	if p.eof() {
		return nil, nil
	}
	c := p.s[p.i]
	switch {
	case c >= '0' && c <= '9':
		n, _ := p.readNumber()
		if !second && p.peek() == '~' {
			p.i++
			step, _ := p.readNumber()
			return &sedAddr{kind: sedAddrStep, n: int64(n), step: int64(step)}, nil
		}
		if n == 0 && !second {
			return &sedAddr{kind: sedAddrZero}, nil
		}
		if n == 0 {
			return nil, p.errf("invalid usage of line address 0")
		}
		return &sedAddr{kind: sedAddrLine, n: int64(n)}, nil
	case c == '$':
		p.i++
		return &sedAddr{kind: sedAddrLast}, nil
	case second && (c == '+' || c == '~'):
		p.i++
		n, ok := p.readNumber()
		if !ok {
			return nil, p.errf("expected address after `%c'", c)
		}
		if c == '+' {
			return &sedAddr{kind: sedAddrPlus, n: int64(n)}, nil
		}
		return &sedAddr{kind: sedAddrMult, n: int64(n)}, nil
	case c == '/' || c == '\\':
		p.i++
		delim := byte('/')
		if c == '\\' {
			if p.eof() || p.s[p.i] == '\n' || p.s[p.i] == '\\' {
				return nil, p.errf("unexpected `,'")
			}
			delim = p.s[p.i]
			p.i++
		}
		pat, ok := p.delimited(delim, true)
		if !ok {
			return nil, p.errEnd("unterminated address regex")
		}
		icase, multi := false, false
		for p.i < len(p.s) {
			if p.s[p.i] == 'I' {
				icase = true
			} else if p.s[p.i] == 'M' {
				multi = true
			} else {
				break
			}
			p.i++
		}
		re, err := p.regex(pat, icase, multi)
		if err != nil {
			return nil, err
		}
		return &sedAddr{kind: sedAddrRegex, re: re}, nil
	}
	return nil, nil
}

// delimited reads up to an unescaped delim, as GNU's match_slash: "\delim"
// becomes delim, and in a regex "\n" becomes a newline; other escapes are
// kept. In a regex, a bracket expression is copied as it is (a delim in it
// is a literal). A raw newline in a regex ends it in error.
func (p *sedParser) delimited(delim byte, regex bool) (string, bool) {
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '[' && regex:
			end := sedBracketEnd(p.s, p.i)
			if end < 0 {
				return "", false
			}
			b.WriteString(p.s[p.i:end])
			p.i = end
		case c == delim:
			p.i++
			return b.String(), true
		case c == '\n':
			return "", false
		case c == '\\' && p.i+1 < len(p.s):
			d := p.s[p.i+1]
			p.i += 2
			switch {
			case d == delim:
				b.WriteByte(d)
			case d == 'n' && regex:
				b.WriteByte('\n')
			case d == '\n' && !regex:
				b.WriteString("\\\n")
			default:
				b.WriteByte('\\')
				b.WriteByte(d)
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", false
}

// sedBracketEnd returns the index just past the bracket expression that
// starts at s[i] ("["), or -1 if it is not closed.
func sedBracketEnd(s string, i int) int {
	j := i + 1
	if j < len(s) && s[j] == '^' {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++
	}
	for j < len(s) {
		switch {
		case s[j] == ']':
			return j + 1
		case s[j] == '[' && j+1 < len(s) && strings.IndexByte(":=.", s[j+1]) >= 0:
			k := strings.Index(s[j+2:], string(s[j+1])+"]")
			if k < 0 {
				return -1
			}
			j += 2 + k + 2
		default:
			j++
		}
	}
	return -1
}

// regex compiles a pattern of the script; "" means the last regex.
func (p *sedParser) regex(pat string, icase, multi bool) (*sedRegex, error) {
	if pat == "" {
		if !p.haveRE {
			return nil, p.errf("no previous regular expression")
		}
		return &sedRegex{}, nil
	}
	o := posixre.Options{ERE: p.o.ere, Sed: true, ICase: icase, Multiline: multi}
	body, err := posixre.Translate(pat, o)
	if err != nil {
		return nil, p.errf("%s", err)
	}
	re, err := posixre.CompileGo(body, o)
	if err != nil {
		return nil, p.errf("%s", err)
	}
	cont, err := posixre.CompileGo("(?s:.)(?:"+body+")", o)
	if err != nil {
		return nil, p.errf("%s", err)
	}
	p.haveRE = true
	return &sedRegex{re: re, cont: cont}, nil
}

// substitute parses s/re/repl/flags (the 's' is consumed).
func (p *sedParser) substitute(cmd *sedCmd) error {
	if p.eof() || p.s[p.i] == '\n' || p.s[p.i] == '\\' {
		return p.errEnd("unterminated `s' command")
	}
	delim := p.s[p.i]
	p.i++
	pat, ok := p.delimited(delim, true)
	if !ok {
		return p.errEnd("unterminated `s' command")
	}
	repl, ok := p.delimited(delim, false)
	if !ok {
		return p.errEnd("unterminated `s' command")
	}
	icase, multi := false, false
flags:
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == 'g':
			if cmd.global {
				p.i++
				return p.errf("multiple `g' options to `s' command")
			}
			cmd.global = true
		case c == 'p':
			if cmd.print > 0 {
				p.i++
				return p.errf("multiple `p' options to `s' command")
			}
			cmd.print++
		case c == 'i' || c == 'I':
			icase = true
		case c == 'm' || c == 'M':
			multi = true
		case c == 'e':
			p.i++
			return p.errf("`e' flag of `s' not supported")
		case c >= '0' && c <= '9':
			if cmd.nth != 0 {
				p.i++
				return p.errf("multiple number options to `s' command")
			}
			n, _ := p.readNumber()
			if n == 0 {
				return p.errf("number option to `s' command may not be zero")
			}
			cmd.nth = n
			continue
		case c == 'w':
			p.i++
			name, err := p.readFilename()
			if err != nil {
				return err
			}
			cmd.fname = name
			p.prog.wfiles = append(p.prog.wfiles, name)
			break flags
		case c == ' ' || c == '\t':
		case c == ';' || c == '\n' || c == '}' || c == '#':
			break flags
		default:
			p.i++
			return p.errf("unknown option to `s'")
		}
		p.i++
	}
	re, err := p.regex(pat, icase, multi)
	if err != nil {
		return err
	}
	cmd.re = re
	groups := -1
	if re.re != nil {
		groups = re.re.NumSubexp()
	}
	parts, err := p.replacement(repl, groups)
	if err != nil {
		return err
	}
	cmd.repl = parts
	return nil
}

// replacement parses the right-hand side of s. groups is the number of
// groups of the regex (-1 unknown: the last regex).
func (p *sedParser) replacement(s string, groups int) ([]sedReplPart, error) {
	var parts []sedReplPart
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, sedReplPart{lit: lit.String(), group: -1})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '&' {
			flush()
			parts = append(parts, sedReplPart{group: 0})
			continue
		}
		if c != '\\' || i+1 >= len(s) {
			lit.WriteByte(c)
			continue
		}
		i++
		d := s[i]
		switch {
		case d >= '0' && d <= '9':
			n := int(d - '0')
			if groups >= 0 && n > groups {
				return nil, p.errf("invalid reference \\%d on `s' command's RHS", n)
			}
			flush()
			parts = append(parts, sedReplPart{group: n})
		case d == 'L' || d == 'U' || d == 'l' || d == 'u' || d == 'E':
			flush()
			parts = append(parts, sedReplPart{group: -1, conv: d})
		case d == '\n':
			lit.WriteByte('\n')
		default:
			if r, n, ok := posixre.CharEscape(s[i-1:]); ok {
				lit.WriteRune(r)
				i += n - 2
				continue
			}
			lit.WriteByte(d)
		}
	}
	flush()
	return parts, nil
}

// transliterate parses y/src/dst/ (the 'y' is consumed).
func (p *sedParser) transliterate(cmd *sedCmd) error {
	if p.eof() || p.s[p.i] == '\n' || p.s[p.i] == '\\' {
		return p.errEnd("unterminated `y' command")
	}
	delim := p.s[p.i]
	p.i++
	var sides [2][]rune
	for k := 0; k < 2; k++ {
		var rs []rune
		closed := false
		for p.i < len(p.s) {
			c := p.s[p.i]
			if c == delim {
				p.i++
				closed = true
				break
			}
			if c == '\\' && p.i+1 < len(p.s) {
				d := p.s[p.i+1]
				switch {
				case d == delim:
					rs = append(rs, rune(d))
					p.i += 2
					continue
				case d == '\\':
					rs = append(rs, '\\')
					p.i += 2
					continue
				case d == '\n':
					rs = append(rs, '\n')
					p.i += 2
					continue
				}
				if r, n, ok := posixre.CharEscape(p.s[p.i:]); ok {
					rs = append(rs, r)
					p.i += n
					continue
				}
				p.i++
				return p.errf("unknown option to `y'")
			}
			r, n := utf8.DecodeRuneInString(p.s[p.i:])
			rs = append(rs, r)
			p.i += n
		}
		if !closed {
			return p.errEnd("unterminated `y' command")
		}
		sides[k] = rs
	}
	if len(sides[0]) != len(sides[1]) {
		return p.errf("strings for `y' command are different lengths")
	}
	cmd.ymap = map[rune]rune{}
	for k, r := range sides[0] {
		if _, seen := cmd.ymap[r]; !seen {
			cmd.ymap[r] = sides[1][k]
		}
	}
	return nil
}
