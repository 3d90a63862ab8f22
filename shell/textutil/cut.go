package textutil

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textCut, "cut") }

var cutFlags = cmdutil.Flags{
	Short: "b:c:d:f:nsz",
	Long: map[string]string{
		"bytes": "b:", "characters": "c:", "delimiter": "d:", "fields": "f:",
		"only-delimited": "s", "zero-terminated": "z", "complement": "complement",
		"output-delimiter": "od:",
	},
}

// cutRange is an inclusive range of 1-based positions.
type cutRange struct{ lo, hi int }

// textCut is cut: remove sections from each line of files.
//
// Supports -b LIST, -c LIST (bytes, as GNU cut does), -f LIST, -d DELIM,
// -s, -n (ignored), -z, --complement and --output-delimiter=STR. A LIST is
// N, N-M, N- or -M items separated by commas.
func textCut(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(cutFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "cut", 1, err)
	}
	mode, list := "", ""
	delim, delimSet := byte('\t'), false
	outDelim, outDelimSet := "", false
	suppress, complement := false, false
	eol := byte('\n')
	for _, o := range opts {
		switch o.Key {
		case "b", "c", "f":
			if mode != "" {
				return cmdutil.Usage(c, "cut", 1, cmdutil.Usagef("only one list may be specified"))
			}
			mode, list = o.Key, o.Val
		case "d":
			if len(o.Val) > 1 {
				return cmdutil.Usage(c, "cut", 1, cmdutil.Usagef("the delimiter must be a single character"))
			}
			delim, delimSet = 0, true
			if o.Val != "" {
				delim = o.Val[0]
			}
		case "od":
			outDelim, outDelimSet = o.Val, true
		case "s":
			suppress = true
		case "complement":
			complement = true
		case "z":
			eol = 0
		}
	}
	if mode == "" {
		return cmdutil.Usage(c, "cut", 1, cmdutil.Usagef("you must specify a list of bytes, characters, or fields"))
	}
	if mode != "f" && delimSet {
		return cmdutil.Usage(c, "cut", 1, cmdutil.Usagef("an input delimiter may be specified only when operating on fields"))
	}
	if mode != "f" && suppress {
		return cmdutil.Usage(c, "cut", 1, cmdutil.Usagef("suppressing non-delimited lines makes sense\n\tonly when operating on fields"))
	}
	ranges, err := cutParseList(list, mode == "f")
	if err != nil {
		if ue, ok := err.(*cmdutil.UsageError); ok {
			return cmdutil.Usage(c, "cut", 1, ue)
		}
		return c.Errorf(1, "cut", "%s", err.Error())
	}
	if complement {
		ranges = cutComplement(ranges)
	}
	if !outDelimSet {
		outDelim = string(delim)
	} else if outDelim == "" {
		outDelim = "\x00" // GNU writes a NUL for an empty --output-delimiter
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := cmdutil.NewOut(c)
	status := 0
	for _, name := range files {
		r, err := cmdutil.Open(c, name)
		if err != nil {
			if ferr := cmdutil.Flush(out); ferr != nil {
				return cmdutil.Finish(c, "cut", ferr)
			}
			fmt.Fprintf(c.Stderr, "cut: %s: %s\n", name, cmdutil.ErrText(err))
			status = 1
			continue
		}
		err = cmdutil.ReadLines(ctx, r, eol, func(line []byte, _ bool) error {
			if mode == "f" {
				cutFields(out.Writer, line, ranges, delim, outDelim, suppress, eol)
			} else {
				cutBytes(out.Writer, line, ranges, outDelim, outDelimSet, eol)
			}
			return nil
		})
		r.Close()
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			fmt.Fprintf(c.Stderr, "cut: %s: %s\n", name, cmdutil.ErrText(err))
			status = 1
		}
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, "cut", err)
	}
	return command.Exit(status)
}

// cutParseList parses a LIST into sorted, merged ranges.
func cutParseList(list string, fields bool) ([]cutRange, error) {
	what := "byte/character positions are"
	valueWhat := "byte/character position"
	if fields {
		what, valueWhat = "fields are", "field value"
	}
	var ranges []cutRange
	for _, item := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		lo, hi, isRange := strings.Cut(item, "-")
		num := func(s string) (int, error) {
			for _, ch := range s {
				if ch < '0' || ch > '9' {
					return 0, cmdutil.Usagef("invalid %s %s", valueWhat, cmdutil.Quote(item))
				}
			}
			n, err := strconv.Atoi(s)
			if err != nil {
				n = math.MaxInt
			}
			if n == 0 {
				return 0, cmdutil.Usagef("%s numbered from 1", what)
			}
			return n, nil
		}
		if !isRange {
			n, err := num(lo)
			if err != nil {
				return nil, err
			}
			ranges = append(ranges, cutRange{n, n})
			continue
		}
		if lo == "" && hi == "" {
			return nil, cmdutil.Usagef("invalid range with no endpoint: -")
		}
		r := cutRange{1, math.MaxInt}
		if lo != "" {
			n, err := num(lo)
			if err != nil {
				return nil, err
			}
			r.lo = n
		}
		if hi != "" {
			n, err := num(hi)
			if err != nil {
				return nil, err
			}
			r.hi = n
		}
		if r.hi < r.lo {
			return nil, cmdutil.Usagef("invalid decreasing range")
		}
		ranges = append(ranges, r)
	}
	if len(ranges) == 0 {
		if fields {
			return nil, cmdutil.Usagef("fields are numbered from 1")
		}
		return nil, cmdutil.Usagef("byte/character positions are numbered from 1")
	}
	slices.SortFunc(ranges, func(a, b cutRange) int { return a.lo - b.lo })
	merged := ranges[:1]
	for _, r := range ranges[1:] {
		last := &merged[len(merged)-1]
		if r.lo <= last.hi {
			last.hi = max(last.hi, r.hi)
			continue
		}
		merged = append(merged, r)
	}
	return merged, nil
}

// cutComplement returns the positions not in ranges.
func cutComplement(ranges []cutRange) []cutRange {
	var out []cutRange
	next := 1
	for _, r := range ranges {
		if r.lo > next {
			out = append(out, cutRange{next, r.lo - 1})
		}
		if r.hi == math.MaxInt {
			return out
		}
		next = r.hi + 1
	}
	return append(out, cutRange{next, math.MaxInt})
}

// cutSelected tells whether position i is in ranges, and whether it starts
// one.
func cutSelected(ranges []cutRange, i int) (in, start bool) {
	for _, r := range ranges {
		if i < r.lo {
			return false, false
		}
		if i <= r.hi {
			return true, i == r.lo
		}
	}
	return false, false
}

func cutBytes(w *bufio.Writer, line []byte, ranges []cutRange, outDelim string, outDelimSet bool, eol byte) {
	printed := false
	for i, b := range line {
		in, start := cutSelected(ranges, i+1)
		if !in {
			continue
		}
		if outDelimSet && printed && start {
			w.WriteString(outDelim)
		}
		printed = true
		w.WriteByte(b)
	}
	w.WriteByte(eol)
}

func cutFields(w *bufio.Writer, line []byte, ranges []cutRange, delim byte, outDelim string, suppress bool, eol byte) {
	hasDelim := false
	for _, b := range line {
		if b == delim {
			hasDelim = true
			break
		}
	}
	if !hasDelim {
		if !suppress {
			w.Write(line)
			w.WriteByte(eol)
		}
		return
	}
	printed := false
	field := 1
	start := 0
	for i := 0; i <= len(line); i++ {
		if i < len(line) && line[i] != delim {
			continue
		}
		if in, _ := cutSelected(ranges, field); in {
			if printed {
				w.WriteString(outDelim)
			}
			w.Write(line[start:i])
			printed = true
		}
		field++
		start = i + 1
	}
	w.WriteByte(eol)
}
