package textutil

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() {
	command.Register(textExpand, "expand")
	command.Register(textUnexpand, "unexpand")
}

// expandTabs are tab stops: every n columns, or a list.
type expandTabs struct {
	every int
	stops []int
}

// next is the tab stop after column col, or -1 past the last of a list.
func (t expandTabs) next(col int) int {
	if t.stops == nil {
		return col + t.every - col%t.every
	}
	for _, s := range t.stops {
		if s > col {
			return s
		}
	}
	return -1
}

func expandParseTabs(s string) (expandTabs, error) {
	var stops []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return expandTabs{}, fmt.Errorf("tab size contains invalid character(s): %s", cmdutil.Quote(f))
		}
		if len(stops) > 0 && n <= stops[len(stops)-1] {
			return expandTabs{}, fmt.Errorf("tab sizes must be ascending")
		}
		stops = append(stops, n)
	}
	if len(stops) == 1 {
		return expandTabs{every: stops[0]}, nil
	}
	if len(stops) == 0 {
		return expandTabs{every: 8}, nil
	}
	return expandTabs{stops: stops}, nil
}

// expandArgs turns the obsolescent -N and -N,M into -t.
func expandArgs(args []string) []string {
	out := append([]string{}, args...)
	for i, a := range out {
		if len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' {
			out[i] = "-t" + a[1:]
		}
	}
	return out
}

// textExpand is expand: convert tabs to spaces.
//
// Supports -t N, -t LIST (explicit stops; past the last a tab is one
// space), -i/--initial and the obsolescent -N.
func textExpand(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(cmdutil.Flags{Short: "it:", Long: map[string]string{"initial": "i", "tabs": "t:"}}, expandArgs(args[1:]))
	if err != nil {
		return cmdutil.Usage(c, "expand", 1, err)
	}
	tabs, initial := expandTabs{every: 8}, false
	for _, o := range opts {
		switch o.Key {
		case "t":
			if tabs, err = expandParseTabs(o.Val); err != nil {
				return c.Errorf(1, "expand", "%s", err.Error())
			}
		case "i":
			initial = true
		}
	}
	return expandEach(ctx, c, "expand", files, func(line []byte, out *strings.Builder) {
		col := 0
		leading := true
		for _, b := range line {
			switch {
			case b == '\t' && (leading || !initial):
				next := tabs.next(col)
				if next < 0 {
					next = col + 1
				}
				out.WriteString(strings.Repeat(" ", next-col))
				col = next
				continue
			case b == '\b':
				if col > 0 {
					col--
				}
			default:
				col++
			}
			if b != ' ' && b != '\t' {
				leading = false
			}
			out.WriteByte(b)
		}
	})
}

// textUnexpand is unexpand: convert spaces to tabs.
//
// Supports -a/--all (all blanks, not just leading ones), --first-only,
// -t N or -t LIST (implies -a) and the obsolescent -N. A single space
// before a tab stop is left alone.
func textUnexpand(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(cmdutil.Flags{Short: "at:", Long: map[string]string{"all": "a", "first-only": "first", "tabs": "t:"}}, expandArgs(args[1:]))
	if err != nil {
		return cmdutil.Usage(c, "unexpand", 1, err)
	}
	tabs, all, firstOnly := expandTabs{every: 8}, false, false
	for _, o := range opts {
		switch o.Key {
		case "t":
			if tabs, err = expandParseTabs(o.Val); err != nil {
				return c.Errorf(1, "unexpand", "%s", err.Error())
			}
			all = true
		case "a":
			all = true
		case "first":
			firstOnly = true
		}
	}
	if firstOnly {
		all = false
	}
	return expandEach(ctx, c, "unexpand", files, func(line []byte, out *strings.Builder) {
		col := 0
		leading := true
		// A run of blanks: the tab stops it crossed (single is a lone
		// space just before the first one) and the spaces since the last.
		crossed, spaces, run := 0, 0, 0
		single := false
		flush := func() {
			if single && crossed == 0 {
				out.WriteByte(' ')
			}
			out.WriteString(strings.Repeat("\t", crossed))
			out.WriteString(strings.Repeat(" ", spaces))
			crossed, spaces, run, single = 0, 0, 0, false
		}
		for _, b := range line {
			if (leading || all) && (b == ' ' || b == '\t') {
				next := tabs.next(col)
				run++
				if b == '\t' {
					if next < 0 {
						next = col + 1
					}
					col = next
					if single {
						crossed++
						single = false
					}
					crossed++
					spaces = 0
					continue
				}
				col++
				spaces++
				if next == col {
					if run == 1 {
						single = true
					} else {
						if single {
							crossed++
							single = false
						}
						crossed++
					}
					spaces = 0
				}
				continue
			}
			flush()
			if b == '\b' {
				if col > 0 {
					col--
				}
			} else {
				col++
			}
			leading = false
			out.WriteByte(b)
		}
		flush()
	})
}

// expandEach runs fn over each line of the files, writing its output.
func expandEach(ctx context.Context, c *command.Call, name string, files []string, fn func(line []byte, out *strings.Builder)) error {
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := cmdutil.NewOut(c)
	status := 0
	var b strings.Builder
	for _, f := range files {
		r, err := cmdutil.Open(c, f)
		if err != nil {
			out.Flush()
			fmt.Fprintf(c.Stderr, "%s: %s: %s\n", name, f, cmdutil.ErrText(err))
			status = 1
			continue
		}
		err = cmdutil.ReadLines(ctx, r, '\n', func(line []byte, term bool) error {
			b.Reset()
			fn(line, &b)
			out.WriteString(b.String())
			if term {
				return out.WriteByte('\n')
			}
			return nil
		})
		r.Close()
		if err != nil {
			return cmdutil.Finish(c, name, err)
		}
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, name, err)
	}
	return command.Exit(status)
}
