package textutil

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixre"
)

func init() { command.Register(textNl, "nl") }

var nlFlags = cmdutil.Flags{
	Short: "b:n:w:s:v:i:h:f:d:l:p",
	Long: map[string]string{
		"body-numbering": "b:", "number-format": "n:", "number-width": "w:",
		"number-separator": "s:", "starting-line-number": "v:", "line-increment": "i:",
		"header-numbering": "h:", "footer-numbering": "f:", "section-delimiter": "d:",
		"join-blank-lines": "l:", "no-renumber": "p",
	},
}

// textNl is nl: number lines of files.
//
// Supports -b STYLE (a all, t non-empty — the default, n none, pREGEX),
// -n FORMAT (ln, rn, rz), -w N, -s SEP, -v N, -i N and -l N. Logical page
// sections (-h, -f, -d, -p) are accepted but every line is body text.
func textNl(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(nlFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "nl", 1, err)
	}
	style, format, width, sep := "t", "rn", 6, "\t"
	start, incr, join := int64(1), int64(1), int64(1)
	var re *regexp.Regexp
	num := func(o cmdutil.Opt, what string) (int64, error) {
		n, err := strconv.ParseInt(o.Val, 10, 64)
		if err != nil {
			return 0, c.Errorf(1, "nl", "invalid %s: %s", what, cmdutil.Quote(o.Val))
		}
		return n, nil
	}
	for _, o := range opts {
		switch o.Key {
		case "b":
			switch {
			case o.Val == "a" || o.Val == "t" || o.Val == "n":
				style = o.Val
			case strings.HasPrefix(o.Val, "p"):
				// A POSIX basic regular expression, as GNU nl reads it:
				// -bp'a+' numbers lines holding "a+", not "ab".
				r, err := posixre.Compile(o.Val[1:], posixre.Options{})
				if err != nil {
					return c.Errorf(1, "nl", "%s", err)
				}
				style, re = "p", r
			default:
				return c.Errorf(1, "nl", "invalid body numbering style: %s", cmdutil.Quote(o.Val))
			}
		case "n":
			if o.Val != "ln" && o.Val != "rn" && o.Val != "rz" {
				return c.Errorf(1, "nl", "invalid line numbering format: %s", cmdutil.Quote(o.Val))
			}
			format = o.Val
		case "w":
			n, err := num(o, "line number field width")
			if err != nil {
				return err
			}
			if n < 1 {
				return c.Errorf(1, "nl", "invalid line number field width: %s", cmdutil.Quote(o.Val))
			}
			width = int(min(n, 1<<16))
		case "s":
			sep = o.Val
		case "v":
			if start, err = num(o, "starting line number"); err != nil {
				return err
			}
		case "i":
			if incr, err = num(o, "line number increment"); err != nil {
				return err
			}
		case "l":
			if join, err = num(o, "line number of blank lines"); err != nil {
				return err
			}
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := cmdutil.NewOut(c)
	blank := strings.Repeat(" ", width+len(sep))
	n := start
	blankRun := int64(0)
	status := 0
	for _, name := range files {
		r, err := cmdutil.Open(c, name)
		if err != nil {
			out.Flush()
			fmt.Fprintf(c.Stderr, "nl: %s: %s\n", name, cmdutil.ErrText(err))
			status = 1
			continue
		}
		err = cmdutil.ReadLines(ctx, r, '\n', func(line []byte, _ bool) error {
			number := false
			switch style {
			case "a":
				number = true
				if len(line) == 0 && join > 1 {
					blankRun++
					number = blankRun%join == 0
				} else {
					blankRun = 0
				}
			case "t":
				number = len(line) > 0
			case "p":
				number = re.Match(line)
			}
			if number {
				s := strconv.FormatInt(n, 10)
				switch format {
				case "ln":
					fmt.Fprintf(out, "%-*s", width, s)
				case "rz":
					if n < 0 {
						fmt.Fprintf(out, "-%0*s", width-1, s[1:])
					} else {
						fmt.Fprintf(out, "%0*s", width, s)
					}
				default:
					fmt.Fprintf(out, "%*s", width, s)
				}
				out.WriteString(sep)
				n += incr
			} else {
				out.WriteString(blank)
			}
			out.Write(line)
			return out.WriteByte('\n')
		})
		r.Close()
		if err != nil {
			return cmdutil.Finish(c, "nl", err)
		}
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, "nl", err)
	}
	return command.Exit(status)
}
