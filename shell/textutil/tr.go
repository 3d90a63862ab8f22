package textutil

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textTr, "tr") }

var trFlags = cmdutil.Flags{
	Short: "cCdst",
	Long: map[string]string{
		"complement": "c", "delete": "d", "squeeze-repeats": "s", "truncate-set1": "t",
	},
}

// textTr is tr: translate, squeeze, and/or delete bytes.
//
// Supports SET1 [SET2] with ranges (a-z), escapes (\n \t \\ \NNN ...),
// classes ([:alpha:] [:digit:] [:upper:] [:lower:] [:space:] [:alnum:]
// [:punct:] [:blank:] [:cntrl:] [:graph:] [:print:] [:xdigit:]),
// equivalence classes ([=c=]) and repeats in SET2 ([c*N], [c*]); -d, -s,
// -c/-C, -t and their combinations. It works on bytes, as GNU tr does.
func textTr(ctx context.Context, c *command.Call, args []string) error {
	opts, sets, err := cmdutil.Parse(trFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "tr", 1, err)
	}
	var complement, del, squeeze, truncate bool
	for _, o := range opts {
		switch o.Key {
		case "c", "C":
			complement = true
		case "d":
			del = true
		case "s":
			squeeze = true
		case "t":
			truncate = true
		}
	}
	translating := !del && len(sets) == 2
	switch {
	case len(sets) == 0:
		return cmdutil.Usage(c, "tr", 1, cmdutil.Usagef("missing operand"))
	case len(sets) == 1 && !del && !squeeze:
		return cmdutil.Usage(c, "tr", 1, cmdutil.Usagef("missing operand after %s\nTwo strings must be given when translating.", cmdutil.Quote(sets[0])))
	case len(sets) == 1 && del && squeeze:
		return cmdutil.Usage(c, "tr", 1, cmdutil.Usagef("missing operand after %s\nTwo strings must be given when both deleting and squeezing repeats.", cmdutil.Quote(sets[0])))
	case len(sets) == 2 && del && !squeeze:
		return cmdutil.Usage(c, "tr", 1, cmdutil.Usagef("extra operand %s\nOnly one string may be given when deleting without squeezing repeats.", cmdutil.Quote(sets[1])))
	case len(sets) > 2:
		return cmdutil.Usage(c, "tr", 1, cmdutil.Usagef("extra operand %s", cmdutil.Quote(sets[2])))
	}
	set1, err := trExpand(sets[0], false, 0)
	if err != nil {
		return c.Errorf(1, "tr", "%s", err.Error())
	}
	if complement {
		set1 = trComplement(set1)
	}
	var set2 []byte
	if len(sets) == 2 {
		set2, err = trExpand(sets[1], true, len(set1))
		if err != nil {
			return c.Errorf(1, "tr", "%s", err.Error())
		}
	}
	var xlate [256]byte
	for i := range xlate {
		xlate[i] = byte(i)
	}
	var deleteSet, squeezeSet [256]bool
	if translating {
		if truncate && len(set1) > len(set2) {
			set1 = set1[:len(set2)]
		}
		if len(set2) < len(set1) {
			if len(set2) == 0 {
				return c.Errorf(1, "tr", "when not truncating set1, string2 must be non-empty")
			}
			last := set2[len(set2)-1]
			for len(set2) < len(set1) {
				set2 = append(set2, last)
			}
		}
		for i, b := range set1 {
			xlate[b] = set2[i]
		}
	}
	if del {
		for _, b := range set1 {
			deleteSet[b] = true
		}
	}
	if squeeze {
		sq := set1
		if len(sets) == 2 {
			sq = set2
		}
		for _, b := range sq {
			squeezeSet[b] = true
		}
	}
	buf := make([]byte, 64*1024)
	stdin := cmdutil.Stdin(c)
	outBuf := make([]byte, 0, 64*1024)
	last := -1
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, rerr := stdin.Read(buf)
		outBuf = outBuf[:0]
		for _, b := range buf[:n] {
			if del && deleteSet[b] {
				continue
			}
			b = xlate[b]
			if squeeze && squeezeSet[b] && int(b) == last {
				continue
			}
			last = int(b)
			outBuf = append(outBuf, b)
		}
		if len(outBuf) > 0 {
			if _, err := c.Stdout.Write(outBuf); err != nil {
				return cmdutil.Finish(c, "tr", &cmdutil.WriteError{Err: err})
			}
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return c.Errorf(1, "tr", "read error: %s", cmdutil.ErrText(rerr))
		}
	}
}

// trComplement returns the bytes not in set, ascending.
func trComplement(set []byte) []byte {
	var in [256]bool
	for _, b := range set {
		in[b] = true
	}
	var out []byte
	for i := 0; i < 256; i++ {
		if !in[i] {
			out = append(out, byte(i))
		}
	}
	return out
}

var trClasses = map[string]func(b byte) bool{
	"alnum":  func(b byte) bool { return trIsAlpha(b) || trIsDigit(b) },
	"alpha":  trIsAlpha,
	"blank":  func(b byte) bool { return b == ' ' || b == '\t' },
	"cntrl":  func(b byte) bool { return b < 0x20 || b == 0x7f },
	"digit":  trIsDigit,
	"graph":  func(b byte) bool { return b > 0x20 && b < 0x7f },
	"lower":  func(b byte) bool { return b >= 'a' && b <= 'z' },
	"print":  func(b byte) bool { return b >= 0x20 && b < 0x7f },
	"punct":  func(b byte) bool { return b > 0x20 && b < 0x7f && !trIsAlpha(b) && !trIsDigit(b) },
	"space":  func(b byte) bool { return b == ' ' || (b >= '\t' && b <= '\r') },
	"upper":  func(b byte) bool { return b >= 'A' && b <= 'Z' },
	"xdigit": func(b byte) bool { return trIsDigit(b) || (b|0x20) >= 'a' && (b|0x20) <= 'f' },
}

func trIsAlpha(b byte) bool { return (b|0x20) >= 'a' && (b|0x20) <= 'z' }
func trIsDigit(b byte) bool { return b >= '0' && b <= '9' }

// trElem is one parsed element of a set: a byte, a run of bytes (a
// range or class), or a repeat [c*n] (n < 0: fill).
type trElem struct {
	bytes  []byte
	repeat bool
	ch     byte
	n      int
	class  string
}

// trExpand parses and expands a set. In SET2 ([c*] allowed) fillTo is
// SET1's length, for the [c*] that fills.
func trExpand(spec string, isSet2 bool, fillTo int) ([]byte, error) {
	elems, err := trParse(spec)
	if err != nil {
		return nil, err
	}
	fills := 0
	fixed := 0
	for _, e := range elems {
		if e.repeat {
			if !isSet2 {
				return nil, fmt.Errorf("the [c*] repeat construct may not appear in string1")
			}
			if e.n < 0 {
				fills++
				continue
			}
			fixed += e.n
			continue
		}
		if isSet2 && e.class != "" && e.class != "upper" && e.class != "lower" {
			return nil, fmt.Errorf("when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'")
		}
		fixed += len(e.bytes)
	}
	if fills > 1 {
		return nil, fmt.Errorf("only one [c*] repeat construct may appear in string2")
	}
	var out []byte
	for _, e := range elems {
		if !e.repeat {
			out = append(out, e.bytes...)
			continue
		}
		n := e.n
		if n < 0 {
			n = max(0, fillTo-fixed)
		}
		for i := 0; i < n; i++ {
			out = append(out, e.ch)
		}
	}
	return out, nil
}

// trParse splits a set into elements.
func trParse(spec string) ([]trElem, error) {
	s := []byte(spec)
	var elems []trElem
	// char reads one (possibly escaped) character at s[i:].
	char := func(i int) (byte, int) {
		if s[i] != '\\' || i+1 >= len(s) {
			return s[i], i + 1
		}
		i++
		switch s[i] {
		case 'a':
			return '\a', i + 1
		case 'b':
			return '\b', i + 1
		case 'f':
			return '\f', i + 1
		case 'n':
			return '\n', i + 1
		case 'r':
			return '\r', i + 1
		case 't':
			return '\t', i + 1
		case 'v':
			return '\v', i + 1
		}
		if s[i] >= '0' && s[i] <= '7' {
			v, j := 0, i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' && v*8+int(s[j]-'0') <= 255 {
				v = v*8 + int(s[j]-'0')
				j++
			}
			return byte(v), j
		}
		return s[i], i + 1
	}
	for i := 0; i < len(s); {
		if s[i] == '[' && i+1 < len(s) {
			if s[i+1] == ':' {
				if end := strings.Index(string(s[i+2:]), ":]"); end >= 0 {
					name := string(s[i+2 : i+2+end])
					f, ok := trClasses[name]
					if !ok {
						return nil, fmt.Errorf("invalid character class %s", cmdutil.Quote(name))
					}
					var b []byte
					for c := 0; c < 256; c++ {
						if f(byte(c)) {
							b = append(b, byte(c))
						}
					}
					elems = append(elems, trElem{bytes: b, class: name})
					i += 2 + end + 2
					continue
				}
			}
			if s[i+1] == '=' {
				if i+4 < len(s) && s[i+3] == '=' && s[i+4] == ']' {
					elems = append(elems, trElem{bytes: []byte{s[i+2]}})
					i += 5
					continue
				}
			}
			// [c*n] or [c*]
			if ch, j := char(i + 1); j < len(s) && s[j] == '*' {
				if end := strings.IndexByte(string(s[j+1:]), ']'); end >= 0 {
					num := string(s[j+1 : j+1+end])
					n := -1
					if num != "" {
						base := 10
						if num[0] == '0' {
							base = 8
						}
						v, err := strconv.ParseInt(num, base, 64)
						if err != nil {
							return nil, fmt.Errorf("invalid repeat count %s in [c*n] construct", cmdutil.Quote(num))
						}
						if v > 0 {
							n = int(min(v, 1<<20))
						}
					}
					elems = append(elems, trElem{repeat: true, ch: ch, n: n})
					i = j + 1 + end + 1
					continue
				}
			}
		}
		lo, j := char(i)
		if j < len(s)-1 && s[j] == '-' {
			hi, k := char(j + 1)
			if hi < lo {
				return nil, fmt.Errorf("range-endpoints of '%s' are in reverse collating sequence order", trShow(s[i:k]))
			}
			var b []byte
			for c := int(lo); c <= int(hi); c++ {
				b = append(b, byte(c))
			}
			elems = append(elems, trElem{bytes: b})
			i = k
			continue
		}
		elems = append(elems, trElem{bytes: []byte{lo}})
		i = j
	}
	return elems, nil
}

// trShow is a range as GNU tr shows it in an error.
func trShow(b []byte) string { return string(b) }
