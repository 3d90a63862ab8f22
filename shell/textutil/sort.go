package textutil

import (
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/quotearg"
)

func init() { command.Register(textSort, "sort") }

var sortFlags = cmdutil.Flags{
	Short: "bcCdfghik:mMno:rRsS:t:T:uVz",
	Long: map[string]string{
		"ignore-leading-blanks": "b", "check": "check::", "dictionary-order": "d",
		"ignore-case": "f", "general-numeric-sort": "g", "human-numeric-sort": "h",
		"ignore-nonprinting": "i", "key": "k:", "merge": "m", "month-sort": "M",
		"numeric-sort": "n", "output": "o:", "reverse": "r", "random-sort": "R",
		"stable": "s", "buffer-size": "S:", "field-separator": "t:",
		"temporary-directory": "T:", "unique": "u", "version-sort": "V",
		"zero-terminated": "z", "parallel": "parallel:", "sort": "sort:",
		"debug": "debug", "batch-size": "batch-size:",
	},
}

// sortKey is a sort key (-k) or the global ordering options, like GNU
// sort's struct keyfield. Fields and characters count from 0; sword < 0
// means from the line's start, eword < 0 to its end.
type sortKey struct {
	sword, schar, eword, echar int
	skipsblanks, skipeblanks   bool
	ignore                     *[256]bool
	translate                  bool
	numeric, general, human    bool
	month, version, random     bool
	reverse                    bool
}

// defaultCompare tells whether the key has no ordering of its own.
func (k *sortKey) defaultCompare() bool {
	return k.ignore == nil && !k.translate && !k.skipsblanks && !k.skipeblanks &&
		!k.numeric && !k.general && !k.human && !k.month && !k.version && !k.random
}

var sortBlanks, sortNonprinting, sortNondictionary [256]bool

func init() {
	for i := 0; i < 256; i++ {
		blank := i == ' ' || i == '\t' || i == '\n'
		alnum := i >= '0' && i <= '9' || i >= 'a' && i <= 'z' || i >= 'A' && i <= 'Z'
		sortBlanks[i] = blank
		sortNonprinting[i] = i < 0x20 || i >= 0x7f
		sortNondictionary[i] = !alnum && !blank
	}
}

// sorter holds one run's settings.
type sorter struct {
	keys           []*sortKey
	tab            int // -1: blank-separated fields
	unique, stable bool
	reverse        bool
	seed           maphash.Seed
	ctx            context.Context
	compares       int
	cancelled      bool
}

// textSort is sort: sort lines of text files.
//
// Supports -b, -d, -f, -g, -h, -i, -M, -n, -R, -r, -V (globally and as key
// modifiers), -k POS1[,POS2] (F[.C][bdfghiMnRrV]), -t SEP, -s, -u, -z,
// -o FILE, -c/-C/--check[=quiet], -m (as a plain sort), --sort=WORD; -S,
// -T and --parallel are accepted and ignored. Comparison is GNU's in the C
// locale: keys in order, then the whole line bytewise as a last resort
// (reversed by a global -r) unless -s or -u.
func textSort(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(sortFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "sort", 2, err)
	}
	s := &sorter{tab: -1, ctx: ctx, seed: maphash.MakeSeed()}
	var global sortKey
	global.sword, global.eword = -1, -1
	check, quietCheck := false, false
	output := ""
	delim := byte('\n')
	for _, o := range opts {
		switch o.Key {
		case "b":
			global.skipsblanks, global.skipeblanks = true, true
		case "d":
			global.ignore = &sortNondictionary
		case "f":
			global.translate = true
		case "g":
			global.general = true
		case "h":
			global.human = true
		case "i":
			global.ignore = &sortNonprinting
		case "M":
			global.month = true
		case "n":
			global.numeric = true
		case "R":
			global.random = true
		case "r":
			global.reverse = true
		case "V":
			global.version = true
		case "sort":
			switch o.Val {
			case "general-numeric":
				global.general = true
			case "human-numeric":
				global.human = true
			case "month":
				global.month = true
			case "numeric":
				global.numeric = true
			case "random":
				global.random = true
			case "version":
				global.version = true
			default:
				return cmdutil.Usage(c, "sort", 2, cmdutil.Usagef("invalid argument %s for '--sort'", cmdutil.Quote(o.Val)))
			}
		case "c":
			check = true
		case "C":
			check, quietCheck = true, true
		case "check":
			check = true
			switch o.Val {
			case "", "diagnose-first":
			case "quiet", "silent":
				quietCheck = true
			default:
				return cmdutil.Usage(c, "sort", 2, cmdutil.Usagef("invalid argument %s for '--check'", cmdutil.Quote(o.Val)))
			}
		case "k":
			k, err := sortParseKey(o.Val)
			if err != nil {
				return c.Errorf(2, "sort", "%s", err.Error())
			}
			s.keys = append(s.keys, k)
		case "o":
			if output != "" && output != o.Val {
				return c.Errorf(2, "sort", "multiple output files specified")
			}
			output = o.Val
		case "s":
			s.stable = true
		case "t":
			sep := o.Val
			switch {
			case sep == "":
				return c.Errorf(2, "sort", "empty tab")
			case sep == `\0`:
				s.tab = 0
			case len(sep) > 1:
				return c.Errorf(2, "sort", "multi-character tab %s", cmdutil.Quote(sep))
			default:
				if s.tab >= 0 && s.tab != int(sep[0]) {
					return c.Errorf(2, "sort", "incompatible tabs")
				}
				s.tab = int(sep[0])
			}
		case "u":
			s.unique = true
		case "z":
			delim = 0
		}
	}
	s.reverse = global.reverse
	for _, k := range s.keys {
		if k.defaultCompare() && !k.reverse {
			k.ignore, k.translate = global.ignore, global.translate
			k.skipsblanks, k.skipeblanks = global.skipsblanks, global.skipeblanks
			k.numeric, k.general, k.human = global.numeric, global.general, global.human
			k.month, k.version, k.random = global.month, global.version, global.random
			k.reverse = global.reverse
		}
	}
	if len(s.keys) == 0 && !global.defaultCompare() {
		g := global
		s.keys = append(s.keys, &g)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if check {
		if len(files) > 1 {
			return cmdutil.Usage(c, "sort", 2, cmdutil.Usagef("extra operand %s not allowed with -c", cmdutil.Quote(files[1])))
		}
		return s.check(c, files[0], delim, quietCheck)
	}
	// The lines live in one buffer and are sorted as spans of it: no
	// allocation per line, and a sort that moves no pointers (a slice of
	// []byte sorted while the GC marks pays a write barrier per move).
	var buf []byte
	for _, name := range files {
		r, err := cmdutil.Open(c, name)
		if err != nil {
			if err == cmdutil.ErrIsDir {
				return c.Errorf(2, "sort", "read failed: %s: Is a directory", quotearg.Name(name))
			}
			return c.Errorf(2, "sort", "cannot read: %s: %s", quotearg.Name(name), cmdutil.ErrText(err))
		}
		buf, err = sortRead(ctx, r, buf)
		r.Close()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return c.Errorf(2, "sort", "read failed: %s: %s", quotearg.Name(name), cmdutil.ErrText(err))
		}
		if len(buf) > 0 && buf[len(buf)-1] != delim {
			// A last line without its delimiter is a line all the same.
			buf = append(buf, delim)
		}
	}
	spans := sortSpans(buf, delim)
	if len(s.keys) == 0 {
		// Whole lines in byte order (reversed by -r: equal lines are the
		// same bytes, so their order cannot show): no comparisons.
		if !sortBytes(ctx, buf, spans, make([]sortSpan, len(spans))) {
			return ctx.Err()
		}
		if s.reverse {
			slices.Reverse(spans)
		}
	} else {
		sortMerge(spans, make([]sortSpan, len(spans)), func(a, b sortSpan) int {
			return s.compare(buf[a.start:a.end], buf[b.start:b.end])
		})
	}
	if s.cancelled {
		return ctx.Err()
	}
	var w io.Writer = c.Stdout
	var file io.WriteCloser
	if output != "" {
		f, err := cmdutil.Create(c, output, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
		if err != nil {
			return c.Errorf(2, "sort", "open failed: %s: %s", quotearg.Name(output), cmdutil.ErrText(err))
		}
		file, w = f, f
	}
	out := cmdutil.NewLineOut(w)
	for i, sp := range spans {
		if i%1024 == 0 && ctx.Err() != nil {
			out.Close()
			return ctx.Err()
		}
		line := buf[sp.start:sp.end]
		if s.unique && i > 0 && s.compare(buf[spans[i-1].start:spans[i-1].end], line) == 0 {
			continue
		}
		if out.Line(line, delim) != nil {
			break
		}
	}
	err = out.Close()
	if file != nil {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		if cmdutil.BrokenPipe(err) {
			return command.Exit(141)
		}
		return c.Errorf(2, "sort", "write failed: %s", cmdutil.ErrText(err))
	}
	return nil
}

// sortRead appends all of r to buf, looking at ctx before each read.
func sortRead(ctx context.Context, r io.Reader, buf []byte) ([]byte, error) {
	empty := 0
	for {
		if err := ctx.Err(); err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, max(cmdutil.BufSize, len(buf)))
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch {
		case err == io.EOF:
			return buf, nil
		case err != nil:
			return buf, err
		case n == 0:
			if empty++; empty >= 100 {
				return buf, io.ErrNoProgress
			}
		default:
			empty = 0
		}
	}
}

// sortSpans returns the lines of buf, each ended by delim (the last one
// too), as spans without their delimiters.
func sortSpans(buf []byte, delim byte) []sortSpan {
	spans := make([]sortSpan, 0, bytes.Count(buf, []byte{delim}))
	for start := 0; start < len(buf); {
		end := start + bytes.IndexByte(buf[start:], delim)
		spans = append(spans, sortSpan{start, end})
		start = end + 1
	}
	return spans
}

// sortSpan is one line of sort's input: buf[start:end].
type sortSpan struct{ start, end int }

// sortMerge sorts a stably, as GNU sort does, by merge sort with tmp (as
// long as a) for scratch: fewer comparisons than the standard library's
// sorts on lines (about n·log₂n, which is what a line sort pays for), and
// no pointer moves. Halves already in order are not merged.
func sortMerge(a, tmp []sortSpan, cmp func(x, y sortSpan) int) {
	if len(a) < 2 {
		return
	}
	mid := len(a) / 2
	sortMerge(a[:mid], tmp[:mid], cmp)
	sortMerge(a[mid:], tmp[mid:], cmp)
	if cmp(a[mid-1], a[mid]) <= 0 {
		return
	}
	copy(tmp, a)
	i, j, k := 0, mid, 0
	for i < mid && j < len(a) {
		if cmp(tmp[j], tmp[i]) < 0 {
			a[k] = tmp[j]
			j++
		} else {
			a[k] = tmp[i]
			i++
		}
		k++
	}
	k += copy(a[k:], tmp[i:mid])
	copy(a[k:], tmp[j:])
}

// radixMin and radixDepth bound sortBytes' radix passes: a bucket of
// fewer lines, or lines alike in their first radixDepth bytes, are
// merge-sorted (which also bounds the recursion).
const (
	radixMin   = 32
	radixDepth = 32
)

// sortBytes sorts spans of buf in bytes.Compare order, stably, by a radix
// sort on the bytes, most significant first (a line that ends sorts
// before any byte), with tmp as long as spans for scratch. It looks at
// ctx before each pass and returns false, spans part sorted, when ctx
// has ended.
func sortBytes(ctx context.Context, buf []byte, spans, tmp []sortSpan) bool {
	return radixSort(ctx, buf, spans, tmp, 0)
}

// radixSort sorts a, lines whose first depth bytes are the same.
func radixSort(ctx context.Context, buf []byte, a, tmp []sortSpan, depth int) bool {
	if len(a) < radixMin || depth >= radixDepth {
		sortMerge(a, tmp[:len(a)], func(x, y sortSpan) int {
			return bytes.Compare(buf[x.start+depth:x.end], buf[y.start+depth:y.end])
		})
		return true
	}
	if ctx.Err() != nil {
		return false
	}
	// Bucket 0: the line ends here; bucket b+1: its next byte is b.
	key := func(sp sortSpan) int {
		if sp.start+depth >= sp.end {
			return 0
		}
		return int(buf[sp.start+depth]) + 1
	}
	var count, next [257]int
	for _, sp := range a {
		count[key(sp)]++
	}
	sum := 0
	for k, n := range count {
		next[k] = sum
		sum += n
	}
	for _, sp := range a {
		k := key(sp)
		tmp[next[k]] = sp
		next[k]++
	}
	copy(a, tmp[:len(a)])
	lo := count[0] // ended lines are equal: done
	for k := 1; k < len(count); k++ {
		hi := lo + count[k]
		if hi-lo > 1 && !radixSort(ctx, buf, a[lo:hi], tmp[lo:hi], depth+1) {
			return false
		}
		lo = hi
	}
	return true
}

// check is sort -c: report the first line out of order.
func (s *sorter) check(c *command.Call, name string, delim byte, quiet bool) error {
	r, err := cmdutil.Open(c, name)
	if err != nil {
		return c.Errorf(2, "sort", "cannot read: %s: %s", quotearg.Name(name), cmdutil.ErrText(err))
	}
	defer r.Close()
	var prev []byte
	n := 0
	disorder := false
	err = cmdutil.ReadLines(s.ctx, r, delim, func(line []byte, _ bool) error {
		n++
		if n > 1 {
			d := s.compare(prev, line)
			if d > 0 || (s.unique && d == 0) {
				if !quiet {
					fmt.Fprintf(c.Stderr, "sort: %s:%d: disorder: %s\n", name, n, line)
				}
				disorder = true
				return io.EOF
			}
		}
		prev = append(prev[:0], line...)
		return nil
	})
	if err != nil && err != io.EOF {
		if s.ctx.Err() != nil {
			return s.ctx.Err()
		}
		return c.Errorf(2, "sort", "read failed: %s: %s", quotearg.Name(name), cmdutil.ErrText(err))
	}
	if disorder {
		return command.Exit(1)
	}
	return nil
}

// compare is GNU sort's compare: the keys, then the whole line bytewise.
func (s *sorter) compare(a, b []byte) int {
	s.compares++
	if s.compares%4096 == 0 && s.ctx.Err() != nil {
		s.cancelled = true
	}
	if s.cancelled {
		return 0
	}
	if len(s.keys) > 0 {
		d := s.keyCompare(a, b)
		if d != 0 || s.unique || s.stable {
			return d
		}
	}
	d := bytes.Compare(a, b)
	if s.reverse {
		return -d
	}
	return d
}

func (s *sorter) keyCompare(a, b []byte) int {
	for _, k := range s.keys {
		ta, la := s.keyBounds(a, k)
		tb, lb := s.keyBounds(b, k)
		d := k.compareText(a[ta:la], b[tb:lb], s.seed)
		if d != 0 {
			if k.reverse {
				return -d
			}
			return d
		}
	}
	return 0
}

// keyBounds returns the start and limit of key k in line.
func (s *sorter) keyBounds(line []byte, k *sortKey) (int, int) {
	lim := len(line)
	if k.eword >= 0 {
		lim = s.limField(line, k)
	}
	start := 0
	if k.sword >= 0 {
		start = s.begField(line, k)
	} else if k.skipsblanks {
		for start < lim && sortBlanks[line[start]] {
			start++
		}
	}
	return start, max(start, lim)
}

func (s *sorter) begField(line []byte, k *sortKey) int {
	p, lim := 0, len(line)
	sword := k.sword
	if s.tab >= 0 {
		for p < lim && sword > 0 {
			sword--
			for p < lim && int(line[p]) != s.tab {
				p++
			}
			if p < lim {
				p++
			}
		}
	} else {
		for p < lim && sword > 0 {
			sword--
			for p < lim && sortBlanks[line[p]] {
				p++
			}
			for p < lim && !sortBlanks[line[p]] {
				p++
			}
		}
	}
	if k.skipsblanks {
		for p < lim && sortBlanks[line[p]] {
			p++
		}
	}
	return min(lim, p+k.schar)
}

func (s *sorter) limField(line []byte, k *sortKey) int {
	p, lim := 0, len(line)
	eword, echar := k.eword, k.echar
	if echar == 0 {
		eword++
	}
	if s.tab >= 0 {
		for p < lim && eword > 0 {
			eword--
			for p < lim && int(line[p]) != s.tab {
				p++
			}
			if p < lim && (eword > 0 || echar > 0) {
				p++
			}
		}
	} else {
		for p < lim && eword > 0 {
			eword--
			for p < lim && sortBlanks[line[p]] {
				p++
			}
			for p < lim && !sortBlanks[line[p]] {
				p++
			}
		}
	}
	if echar != 0 {
		if k.skipeblanks {
			for p < lim && sortBlanks[line[p]] {
				p++
			}
		}
		p = min(lim, p+echar)
	}
	return p
}

// compareText compares two keys' texts by the key's ordering.
func (k *sortKey) compareText(a, b []byte, seed maphash.Seed) int {
	special := k.numeric || k.general || k.human || k.month || k.version || k.random
	if special && (k.ignore != nil || k.translate) {
		a, b = k.filter(a), k.filter(b)
	}
	switch {
	case k.numeric:
		return sortNumCompare(sortSkipBlanks(a), sortSkipBlanks(b))
	case k.general:
		return sortGeneralCompare(a, b)
	case k.human:
		a, b = sortSkipBlanks(a), sortSkipBlanks(b)
		if d := sortUnitOrder(a) - sortUnitOrder(b); d != 0 {
			return d
		}
		return sortNumCompare(a, b)
	case k.month:
		return sortMonth(a) - sortMonth(b)
	case k.version:
		return cmdutil.VersionCompare(a, b)
	case k.random:
		ha, hb := maphash.Bytes(seed, a), maphash.Bytes(seed, b)
		if ha != hb {
			if ha < hb {
				return -1
			}
			return 1
		}
		return bytes.Compare(a, b)
	case k.ignore != nil || k.translate:
		i, j := 0, 0
		for {
			if k.ignore != nil {
				for i < len(a) && k.ignore[a[i]] {
					i++
				}
				for j < len(b) && k.ignore[b[j]] {
					j++
				}
			}
			if i >= len(a) || j >= len(b) {
				break
			}
			ca, cb := a[i], b[j]
			if k.translate {
				ca, cb = sortUpper(ca), sortUpper(cb)
			}
			if ca != cb {
				return int(ca) - int(cb)
			}
			i++
			j++
		}
		return sortBool(i < len(a)) - sortBool(j < len(b))
	}
	return bytes.Compare(a, b)
}

// filter drops ignored bytes and folds case, for the special orderings.
func (k *sortKey) filter(t []byte) []byte {
	out := make([]byte, 0, len(t))
	for _, ch := range t {
		if k.ignore != nil && k.ignore[ch] {
			continue
		}
		if k.translate {
			ch = sortUpper(ch)
		}
		out = append(out, ch)
	}
	return out
}

func sortUpper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func sortBool(b bool) int {
	if b {
		return 1
	}
	return 0
}

func sortSkipBlanks(t []byte) []byte {
	for len(t) > 0 && sortBlanks[t[0]] {
		t = t[1:]
	}
	return t
}

// sortNumber splits the number at the start of t (GNU strnumcmp's syntax:
// an optional '-', digits, an optional '.' and digits) into its sign, its
// integer digits without leading zeros and its fraction digits without
// trailing zeros.
func sortNumber(t []byte) (neg bool, intPart, frac []byte) {
	i := 0
	if i < len(t) && t[i] == '-' {
		neg = true
		i++
	}
	s := i
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	intPart = bytes.TrimLeft(t[s:i], "0")
	if i < len(t) && t[i] == '.' {
		i++
		s = i
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		frac = bytes.TrimRight(t[s:i], "0")
	}
	if len(intPart) == 0 && len(frac) == 0 {
		neg = false
	}
	return neg, intPart, frac
}

// sortNumCompare compares the numbers at the starts of a and b like GNU's
// strnumcmp (no thousands separator, '.' as the decimal point).
func sortNumCompare(a, b []byte) int {
	na, ia, fa := sortNumber(a)
	nb, ib, fb := sortNumber(b)
	if na != nb {
		if na {
			return -1
		}
		return 1
	}
	d := len(ia) - len(ib)
	if d == 0 {
		d = bytes.Compare(ia, ib)
	}
	if d == 0 {
		d = bytes.Compare(fa, fb)
	}
	if d > 0 {
		d = 1
	} else if d < 0 {
		d = -1
	}
	if na {
		return -d
	}
	return d
}

// sortUnitOrder is GNU's find_unit_order for -h: the power of the SI
// suffix after a non-zero number, negative for a negative number.
func sortUnitOrder(t []byte) int {
	neg := len(t) > 0 && t[0] == '-'
	if neg {
		t = t[1:]
	}
	i := 0
	nonzero := false
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		if t[i] > '0' && t[i] <= '9' {
			nonzero = true
		}
		i++
	}
	if !nonzero || i >= len(t) {
		return 0
	}
	order := strings.IndexByte("KMGTPEZYRQ", t[i]) + 1
	if t[i] == 'k' {
		order = 1
	}
	if neg {
		return -order
	}
	return order
}

// sortGeneralCompare is -g: floating-point numbers, with non-numbers
// first, then NaNs, then numbers in order.
func sortGeneralCompare(a, b []byte) int {
	fa, oka := textParseFloatPrefix(a)
	fb, okb := textParseFloatPrefix(b)
	switch {
	case !oka:
		if !okb {
			return 0
		}
		return -1
	case !okb:
		return 1
	}
	switch {
	case fa < fb:
		return -1
	case fa > fb:
		return 1
	case fa == fb:
		return 0
	case fb == fb: // a is NaN
		return -1
	case fa == fa:
		return 1
	}
	return 0
}

// textParseFloatPrefix parses the longest prefix of t that strtod would
// (after leading white space), telling whether there was one.
func textParseFloatPrefix(t []byte) (float64, bool) {
	s := strings.TrimLeft(string(t), " \t\n\v\f\r")
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	rest := strings.ToLower(s[i:])
	for _, w := range []string{"infinity", "inf", "nan"} {
		if strings.HasPrefix(rest, w) {
			f, _ := strconv.ParseFloat(s[:i]+w, 64)
			return f, true
		}
	}
	if f, ok := textParseHexFloat(s, i); ok {
		return f, true
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	f, err := strconv.ParseFloat(s[:i], 64)
	if err != nil && f == 0 && !strings.Contains(err.Error(), "range") {
		return 0, false
	}
	return f, true
}

// textParseHexFloat parses a C hexadecimal float ("0x1.8p3", "0x10") that
// starts at s[i:], after the sign s[:i].
func textParseHexFloat(s string, i int) (float64, bool) {
	if !(strings.HasPrefix(s[i:], "0x") || strings.HasPrefix(s[i:], "0X")) {
		return 0, false
	}
	isHex := func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
	j := i + 2
	digits := 0
	for j < len(s) && isHex(s[j]) {
		j++
		digits++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && isHex(s[j]) {
			j++
			digits++
		}
	}
	if digits == 0 {
		return 0, false
	}
	exp := "p0"
	if j < len(s) && (s[j] == 'p' || s[j] == 'P') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && s[k] >= '0' && s[k] <= '9' {
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				k++
			}
			exp = s[j:k]
		}
	}
	f, err := strconv.ParseFloat(s[:j]+exp, 64)
	if err != nil && f == 0 {
		return 0, false
	}
	return f, true
}

var sortMonths = []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}

// sortMonth is -M: 1 to 12 for a month's abbreviation after blanks, else 0.
func sortMonth(t []byte) int {
	t = sortSkipBlanks(t)
	if len(t) < 3 {
		return 0
	}
	m := strings.ToUpper(string(t[:3]))
	for i, name := range sortMonths {
		if m == name {
			return i + 1
		}
	}
	return 0
}

// sortParseKey parses a -k argument: F[.C][OPTS][,F[.C][OPTS]].
func sortParseKey(spec string) (*sortKey, error) {
	k := &sortKey{}
	s := spec
	num := func(what string) (int, error) {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, fmt.Errorf("%s: invalid count at start of %s", what, cmdutil.Quote(s))
		}
		n, err := strconv.Atoi(s[:i])
		if err != nil {
			n = 1<<31 - 1
		}
		s = s[i:]
		return n, nil
	}
	bad := func(msg string) error {
		return fmt.Errorf("%s: invalid field specification %s", msg, cmdutil.Quote(spec))
	}
	n, err := num("invalid number at field start")
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, bad("field number is zero")
	}
	k.sword = n - 1
	if strings.HasPrefix(s, ".") {
		s = s[1:]
		n, err := num("invalid number after '.'")
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, bad("character offset is zero")
		}
		k.schar = n - 1
	}
	s = k.setOrdering(s, true)
	k.eword = -1
	if strings.HasPrefix(s, ",") {
		s = s[1:]
		n, err := num("invalid number after ','")
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, bad("field number is zero")
		}
		k.eword = n - 1
		if strings.HasPrefix(s, ".") {
			s = s[1:]
			n, err := num("invalid number after '.'")
			if err != nil {
				return nil, err
			}
			k.echar = n
		}
		s = k.setOrdering(s, false)
	}
	if s != "" {
		return nil, bad("stray character in field spec")
	}
	return k, nil
}

// setOrdering applies the ordering letters at the start of s.
func (k *sortKey) setOrdering(s string, start bool) string {
	for s != "" {
		switch s[0] {
		case 'b':
			if start {
				k.skipsblanks = true
			} else {
				k.skipeblanks = true
			}
		case 'd':
			k.ignore = &sortNondictionary
		case 'f':
			k.translate = true
		case 'g':
			k.general = true
		case 'h':
			k.human = true
		case 'i':
			if k.ignore == nil {
				k.ignore = &sortNonprinting
			}
		case 'M':
			k.month = true
		case 'n':
			k.numeric = true
		case 'R':
			k.random = true
		case 'r':
			k.reverse = true
		case 'V':
			k.version = true
		default:
			return s
		}
		s = s[1:]
	}
	return s
}
