// Package grep is the grep command (and egrep, fgrep): GNU-compatible line search over c.FS.
//
// Supported flags (short, long and GNU-style unique long prefixes; options
// may follow operands, "--" ends them):
//
//	-G --basic-regexp     -E --extended-regexp  -F --fixed-strings
//	-P --perl-regexp (Go RE2 syntax)            -e PAT --regexp=PAT (several)
//	-f FILE --file=FILE   -i -y --ignore-case   --no-ignore-case
//	-v --invert-match     -w --word-regexp      -x --line-regexp
//	-c --count            -l --files-with-matches
//	-L --files-without-match                    -o --only-matching
//	-q --quiet --silent   -s --no-messages      -H --with-filename
//	-h --no-filename      --label=NAME          -n --line-number
//	-b --byte-offset      -m N --max-count=N    -A N -B N -C N -NUM
//	--after-context --before-context --context  --group-separator=SEP
//	--no-group-separator  -r --recursive        -R --dereference-recursive
//	-d ACTION --directories=read|skip|recurse   -D ACTION (accepted)
//	--include=GLOB --exclude=GLOB --exclude-dir=GLOB
//	-a --text  -I  --binary-files=binary|text|without-match
//	-z --null-data  -Z --null  -T --initial-tab
//	--color[=WHEN] --colour (accepted; never colours)  -U -u --line-buffered
//	--help  -V --version
//
// Patterns are POSIX BRE/ERE in GNU's flavour (see regex.go); back-references
// are refused. Binary files (a NUL in the first 32 KiB) that match print
// "grep: NAME: binary file matches" on stderr, as GNU grep 3.5 and later. Exit status: 0 a line was selected, 1 none, 2
// trouble (even with -s; -q with a match exits 0).
package grep

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/command"
)

func init() {
	command.Register(grepBuiltin('G'), "grep")
	command.Register(grepBuiltin('E'), "egrep")
	command.Register(grepBuiltin('F'), "fgrep")
}

// grepOpts is a parsed grep command line.
type grepOpts struct {
	syntax       byte // 'G', 'E', 'F' or 'P'
	patterns     []string
	havePatterns bool // -e or -f given
	patFiles     []string
	icase        bool
	invert       bool
	words        bool
	lines        bool
	count        bool
	listMatch    bool
	listNonMatch bool
	only         bool
	quiet        bool
	noMessages   bool
	withName     int // -1 default, 0 -h, 1 -H
	label        string
	lineNum      bool
	byteOffset   bool
	maxCount     int64 // -1: no limit
	before       int   // -1: not given
	after        int
	groupSep     *string
	recursive    bool
	deref        bool
	dirSkip      bool
	filters      []grepFilter // --include / --exclude, in order
	excludeDirs  []string
	binary       string // "binary", "text", "without-match"
	nullData     bool
	nullName     bool
	initialTab   bool
	help         bool
	version      bool
}

// grepFilter is one --include (include=true) or --exclude glob.
type grepFilter struct {
	glob    string
	include bool
}

// grepLongOpts maps long options to their argument need: 0 none,
// 1 required, 2 optional.
var grepLongOpts = map[string]int{
	"basic-regexp": 0, "extended-regexp": 0, "fixed-strings": 0, "fixed-regexp": 0,
	"perl-regexp": 0, "regexp": 1, "file": 1, "ignore-case": 0, "no-ignore-case": 0,
	"invert-match": 0, "word-regexp": 0, "line-regexp": 0, "count": 0,
	"files-with-matches": 0, "files-without-match": 0, "only-matching": 0,
	"quiet": 0, "silent": 0, "no-messages": 0, "with-filename": 0, "no-filename": 0,
	"label": 1, "line-number": 0, "byte-offset": 0, "max-count": 1,
	"after-context": 1, "before-context": 1, "context": 2, "group-separator": 1,
	"no-group-separator": 0, "recursive": 0, "dereference-recursive": 0,
	"directories": 1, "devices": 1, "include": 1, "exclude": 1, "exclude-dir": 1,
	"text": 0, "binary-files": 1, "null-data": 0, "null": 0, "initial-tab": 0,
	"color": 2, "colour": 2, "binary": 0, "unix-byte-offsets": 0,
	"line-buffered": 0, "help": 0, "version": 0,
}

// grepShortArg lists the short options that take an argument.
const grepShortArg = "efmABCdD"

// grepUsageError is a command-line error: message (may be empty) then the
// usage hint, exit 2.
type grepUsageError string

func (e grepUsageError) Error() string { return string(e) }

func grepBuiltin(syntax byte) command.Func {
	return func(ctx context.Context, c *command.Call, args []string) error {
		o, files, err := grepParse(args[1:], syntax)
		if err != nil {
			if msg := err.Error(); msg != "" {
				fmt.Fprintf(c.Stderr, "grep: %s\n", msg)
			}
			if _, ok := err.(grepUsageError); ok {
				fmt.Fprint(c.Stderr, "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n")
			}
			return command.Exit(2)
		}
		if o.help {
			fmt.Fprint(c.Stdout, grepHelp)
			return nil
		}
		if o.version {
			fmt.Fprintln(c.Stdout, "grep (agentenkit shell, GNU grep compatible) 3.8")
			return nil
		}
		return grepRun(ctx, c, o, files)
	}
}

const grepHelp = `Usage: grep [OPTION]... PATTERNS [FILE]...
Search for PATTERNS in each FILE.
Example: grep -i 'hello world' menu.h main.c
PATTERNS can contain multiple patterns separated by newlines.

Pattern selection and interpretation:
  -E, --extended-regexp     PATTERNS are extended regular expressions
  -F, --fixed-strings       PATTERNS are strings
  -G, --basic-regexp        PATTERNS are basic regular expressions
  -P, --perl-regexp         PATTERNS are Go (RE2) regular expressions
  -e, --regexp=PATTERNS     use PATTERNS for matching
  -f, --file=FILE           take PATTERNS from FILE
  -i, --ignore-case         ignore case distinctions in patterns and data
  -w, --word-regexp         match only whole words
  -x, --line-regexp         match only whole lines

Miscellaneous:
  -s, --no-messages         suppress error messages
  -v, --invert-match        select non-matching lines

Output control:
  -m, --max-count=NUM       stop after NUM selected lines
  -b, --byte-offset         print the byte offset with output lines
  -n, --line-number         print line number with output lines
  -H, --with-filename       print file name with output lines
  -h, --no-filename         suppress the file name prefix on output
      --label=LABEL         use LABEL as the standard input file name prefix
  -o, --only-matching       show only nonempty parts of lines that match
  -q, --quiet, --silent     suppress all normal output
      --binary-files=TYPE   'binary', 'text', or 'without-match'
  -a, --text                equivalent to --binary-files=text
  -I                        equivalent to --binary-files=without-match
  -d, --directories=ACTION  'read', 'recurse', or 'skip'
  -r, --recursive           like --directories=recurse
  -R, --dereference-recursive  likewise, but follow all symlinks
      --include=GLOB        search only files that match GLOB
      --exclude=GLOB        skip files that match GLOB
      --exclude-dir=GLOB    skip directories that match GLOB
  -L, --files-without-match  print only names of FILEs with no selected lines
  -l, --files-with-matches  print only names of FILEs with selected lines
  -c, --count               print only a count of selected lines per FILE
  -Z, --null                print 0 byte after FILE name
  -z, --null-data           a data line ends in 0 byte, not newline

Context control:
  -B, --before-context=NUM  print NUM lines of leading context
  -A, --after-context=NUM   print NUM lines of trailing context
  -C, --context=NUM         print NUM lines of output context
  -NUM                      same as --context=NUM
      --group-separator=SEP  print SEP on line between matches with context
      --no-group-separator  do not print separator for matches with context

When FILE is '-', read standard input.  With no FILE, read '.' if
recursive, '-' otherwise.  Exit status is 0 if any line is selected,
1 otherwise; if any error occurs and -q is not given, the exit status is 2.
`

// grepParse parses grep's arguments (without the command name).
func grepParse(args []string, syntax byte) (*grepOpts, []string, error) {
	o := &grepOpts{syntax: syntax, withName: -1, maxCount: -1, before: -1, after: -1, binary: "binary"}
	var operands []string
	ctxNum := "" // digits of a -NUM option being accumulated
	flushNum := func() error {
		if ctxNum != "" {
			n, err := grepContextArg(ctxNum)
			if err != nil {
				return err
			}
			o.before, o.after = n, n
			ctxNum = ""
		}
		return nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			full, err := grepLongName(name)
			if err != nil {
				return nil, nil, err
			}
			need := grepLongOpts[full]
			if hasVal && need == 0 {
				return nil, nil, grepUsageError(fmt.Sprintf("option '--%s' doesn't allow an argument", full))
			}
			if !hasVal && need == 1 {
				if i+1 >= len(args) {
					return nil, nil, grepUsageError(fmt.Sprintf("option '--%s' requires an argument", full))
				}
				i++
				val, hasVal = args[i], true
			}
			if err := o.setLong(full, val, hasVal); err != nil {
				return nil, nil, err
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			operands = append(operands, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			ch := a[j]
			if ch >= '0' && ch <= '9' {
				ctxNum += string(ch)
				continue
			}
			if err := flushNum(); err != nil {
				return nil, nil, err
			}
			if strings.IndexByte(grepShortArg, ch) >= 0 {
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return nil, nil, grepUsageError(fmt.Sprintf("option requires an argument -- '%c'", ch))
					}
					i++
					val = args[i]
				}
				if err := o.setShort(ch, val); err != nil {
					return nil, nil, err
				}
				break
			}
			if err := o.setShort(ch, ""); err != nil {
				return nil, nil, err
			}
		}
		if err := flushNum(); err != nil {
			return nil, nil, err
		}
	}
	if o.help || o.version {
		return o, nil, nil
	}
	if !o.havePatterns {
		if len(operands) == 0 {
			return nil, nil, grepUsageError("")
		}
		o.patterns = append(o.patterns, operands[0])
		operands = operands[1:]
	}
	return o, operands, nil
}

// grepLongName resolves a possibly abbreviated long option.
func grepLongName(name string) (string, error) {
	if _, ok := grepLongOpts[name]; ok {
		return name, nil
	}
	var found []string
	for full := range grepLongOpts {
		if strings.HasPrefix(full, name) {
			found = append(found, full)
		}
	}
	sort.Strings(found)
	if len(found) == 2 && found[0] == "color" && found[1] == "colour" {
		found = found[:1] // two spellings of one option
	}
	if len(found) == 1 {
		return found[0], nil
	}
	if len(found) > 1 {
		return "", grepUsageError(fmt.Sprintf("option '--%s' is ambiguous; possibilities: '--%s'", name, strings.Join(found, "' '--")))
	}
	return "", grepUsageError(fmt.Sprintf("unrecognized option '--%s'", name))
}

func grepContextArg(s string) (int, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s: invalid context length argument", s)
	}
	if n > 1<<30 {
		n = 1 << 30
	}
	return int(n), nil
}

func (o *grepOpts) setShort(ch byte, val string) error {
	switch ch {
	case 'G', 'E', 'F', 'P':
		o.syntax = ch
	case 'e':
		o.patterns = append(o.patterns, val)
		o.havePatterns = true
	case 'f':
		o.patFiles = append(o.patFiles, val)
		o.havePatterns = true
	case 'i', 'y':
		o.icase = true
	case 'v':
		o.invert = true
	case 'w':
		o.words = true
	case 'x':
		o.lines = true
	case 'c':
		o.count = true
	case 'l':
		o.listMatch, o.listNonMatch = true, false
	case 'L':
		o.listNonMatch, o.listMatch = true, false
	case 'o':
		o.only = true
	case 'q':
		o.quiet = true
	case 's':
		o.noMessages = true
	case 'H':
		o.withName = 1
	case 'h':
		o.withName = 0
	case 'n':
		o.lineNum = true
	case 'b':
		o.byteOffset = true
	case 'm':
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return fmt.Errorf("invalid max count")
		}
		if n < 0 {
			n = -1
		}
		o.maxCount = n
	case 'A', 'B', 'C':
		n, err := grepContextArg(val)
		if err != nil {
			return err
		}
		if ch != 'B' {
			o.after = n
		}
		if ch != 'A' {
			o.before = n
		}
	case 'r':
		o.recursive = true
	case 'R':
		o.recursive, o.deref = true, true
	case 'd':
		switch val {
		case "read":
			o.recursive, o.dirSkip = false, false
		case "skip":
			o.dirSkip = true
		case "recurse":
			o.recursive = true
		default:
			return grepUsageError("invalid argument '" + val + "' for '--directories'\nValid arguments are:\n  - 'read'\n  - 'recurse'\n  - 'skip'")
		}
	case 'D':
		if val != "read" && val != "skip" {
			return grepUsageError("unknown devices method")
		}
	case 'a':
		o.binary = "text"
	case 'I':
		o.binary = "without-match"
	case 'z':
		o.nullData = true
	case 'Z':
		o.nullName = true
	case 'T':
		o.initialTab = true
	case 'U', 'u':
	case 'V':
		o.version = true
	default:
		return grepUsageError(fmt.Sprintf("invalid option -- '%c'", ch))
	}
	return nil
}

func (o *grepOpts) setLong(name, val string, hasVal bool) error {
	short := map[string]byte{
		"basic-regexp": 'G', "extended-regexp": 'E', "fixed-strings": 'F', "fixed-regexp": 'F',
		"perl-regexp": 'P', "regexp": 'e', "file": 'f', "ignore-case": 'i',
		"invert-match": 'v', "word-regexp": 'w', "line-regexp": 'x', "count": 'c',
		"files-with-matches": 'l', "files-without-match": 'L', "only-matching": 'o',
		"quiet": 'q', "silent": 'q', "no-messages": 's', "with-filename": 'H',
		"no-filename": 'h', "line-number": 'n', "byte-offset": 'b', "max-count": 'm',
		"after-context": 'A', "before-context": 'B', "recursive": 'r',
		"dereference-recursive": 'R', "directories": 'd', "devices": 'D', "text": 'a',
		"null-data": 'z', "null": 'Z', "initial-tab": 'T', "binary": 'U',
		"unix-byte-offsets": 'u', "version": 'V',
	}
	if ch, ok := short[name]; ok {
		return o.setShort(ch, val)
	}
	switch name {
	case "no-ignore-case":
		o.icase = false
	case "label":
		o.label = val
	case "context":
		if !hasVal {
			val = "2"
		}
		return o.setShort('C', val)
	case "group-separator":
		o.groupSep = &val
	case "no-group-separator":
		empty := "\x00none"
		o.groupSep = &empty
	case "include", "exclude":
		o.filters = append(o.filters, grepFilter{glob: val, include: name == "include"})
	case "exclude-dir":
		o.excludeDirs = append(o.excludeDirs, val)
	case "binary-files":
		switch val {
		case "binary", "text", "without-match":
			o.binary = val
		default:
			return fmt.Errorf("unknown binary-files type")
		}
	case "color", "colour":
		switch val {
		case "", "never", "always", "auto", "yes", "no", "force", "none", "tty", "if-tty":
		default:
			return grepUsageError("invalid argument '" + val + "' for '--color'")
		}
	case "line-buffered":
	case "help":
		o.help = true
	}
	return nil
}

// grepLoadPatterns reads -f files and splits all patterns on newlines.
func grepLoadPatterns(c *command.Call, o *grepOpts) error {
	var pats []string
	for _, p := range o.patterns {
		pats = append(pats, strings.Split(p, "\n")...)
	}
	for _, name := range o.patFiles {
		var data []byte
		var err error
		if name == "-" {
			data, err = io.ReadAll(c.Stdin)
		} else {
			data, err = ReadFile(c, name)
		}
		if err != nil {
			return fmt.Errorf("%s: %s", name, ErrText(err))
		}
		s := string(data)
		if s == "" {
			continue
		}
		s = strings.TrimSuffix(s, "\n")
		pats = append(pats, strings.Split(s, "\n")...)
	}
	o.patterns = pats
	return nil
}
