// Package sed is the sed command: a GNU-compatible stream editor over c.FS.
//
// Options (short, long and unique long prefixes; options may follow
// operands, "--" ends them):
//
//	-n --quiet --silent          -e SCRIPT --expression=SCRIPT (several)
//	-f FILE --file=FILE ("-" is stdin)   -E -r --regexp-extended
//	-s --separate                -i[SUFFIX] --in-place[=SUFFIX] (via c.FS;
//	                               a "*" in SUFFIX stands for the file name)
//	-l N --line-length=N         -z --null-data
//	-u --unbuffered --posix --debug --sandbox --follow-symlinks (accepted)
//	--help --version
//
// Script (see sed_parse.go): addresses N, $, /re/ and \%re% with I and M
// flags, first~step, 0,/re/, addr1,addr2, addr,+N, addr,~N, "!"; commands
// s (flags g p N i I m M w FILE; & \1..\9 \n and \U \L \u \l \E in the
// replacement), y, p, P, d, D, n, N, g, G, h, H, x, z, =, l [N], q [CODE],
// Q [CODE], a/i/c (one-line "a text" and classic "a\" forms), r, R, w, W,
// b, t, T, :label, {}, F, #comments, "#n" first line.
// Not supported: the e command and s///e (no process execution), and
// back-references in patterns (RE2).
//
// Exit status: 0; 1 bad usage or script; 2 an input file could not be
// read; 4 an I/O error; or the code given to q/Q.
package sed

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/grep"
)

func init() {
	command.Register(sedBuiltin, "sed")
}

// sedOpts is a parsed sed command line.
type sedOpts struct {
	quiet    bool
	ere      bool
	separate bool
	inPlace  bool
	suffix   string
	nullData bool
	lineLen  int
	chunks   []sedChunk
	help     bool
	version  bool
}

// sedChunk is one piece of script: an -e argument or an -f file.
type sedChunk struct {
	text string
	// file is the script file's name, "" for -e.
	file string
	// expr is the -e expression's number (from 1).
	expr int
}

// sedFail is an error carrying sed's exit status; its message is printed
// as "sed: MESSAGE".
type sedFail struct {
	status int
	msg    string
	// raw: print msg as it is (usage text), without "sed: ".
	raw bool
}

func (e *sedFail) Error() string { return e.msg }

const sedUsage = `Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the 'l' command
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
  -s, --separate
                 consider files as separate rather than as a single
                 continuous long stream.
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read.
`

var sedLongOpts = map[string]int{ // 0 no argument, 1 required, 2 optional
	"quiet": 0, "silent": 0, "expression": 1, "file": 1, "regexp-extended": 0,
	"separate": 0, "in-place": 2, "line-length": 1, "null-data": 0,
	"zero-terminated": 0, "unbuffered": 0, "posix": 0, "debug": 0, "sandbox": 0,
	"follow-symlinks": 0, "binary": 0, "help": 0, "version": 0,
}

func sedBuiltin(ctx context.Context, c *command.Call, args []string) error {
	o, files, err := sedParseArgs(c, args[1:])
	if err != nil {
		if f, ok := err.(*sedFail); ok {
			if f.raw {
				fmt.Fprintln(c.Stderr, f.msg)
			} else {
				fmt.Fprintf(c.Stderr, "sed: %s\n", f.msg)
			}
			return command.Exit(f.status)
		}
		return c.Errorf(1, "sed", "%s", err)
	}
	if o.help {
		fmt.Fprint(c.Stdout, sedUsage)
		return nil
	}
	if o.version {
		fmt.Fprintln(c.Stdout, "sed (agentenkit shell, GNU sed compatible) 4.9")
		return nil
	}
	prog, err := sedCompile(o)
	if err != nil {
		f, ok := err.(*sedFail)
		if !ok {
			f = &sedFail{status: 1, msg: err.Error()}
		}
		fmt.Fprintf(c.Stderr, "sed: %s\n", f.msg)
		return command.Exit(f.status)
	}
	if o.inPlace && len(files) == 0 {
		return c.Errorf(4, "sed", "no input files")
	}
	return sedRun(ctx, c, o, prog, files)
}

// sedParseArgs parses the command line (without the command name).
func sedParseArgs(c *command.Call, args []string) (*sedOpts, []string, error) {
	o := &sedOpts{lineLen: 70}
	var operands []string
	haveScript := false
	usage := func(msg string) error {
		if msg != "" {
			msg = msg + "\n"
		}
		return &sedFail{status: 1, msg: strings.TrimSuffix(msg+sedUsage, "\n"), raw: true}
	}
	addFile := func(name string) error {
		var data []byte
		var err error
		if name == "-" {
			data, err = io.ReadAll(c.Stdin)
		} else {
			data, err = grep.ReadFile(c, name)
		}
		if err != nil {
			return &sedFail{status: 4, msg: fmt.Sprintf("couldn't open file %s: %s", name, grep.ErrText(err))}
		}
		text := strings.TrimSuffix(string(data), "\n")
		o.chunks = append(o.chunks, sedChunk{text: text, file: name})
		haveScript = true
		return nil
	}
	exprs := 0
	addExpr := func(s string) {
		exprs++
		o.chunks = append(o.chunks, sedChunk{text: s, expr: exprs})
		haveScript = true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			full := ""
			if _, ok := sedLongOpts[name]; ok {
				full = name
			} else {
				var found []string
				for n := range sedLongOpts {
					if strings.HasPrefix(n, name) {
						found = append(found, n)
					}
				}
				if len(found) != 1 {
					if len(found) > 1 {
						return nil, nil, usage("sed: option '--" + name + "' is ambiguous")
					}
					return nil, nil, usage("sed: unrecognized option '--" + name + "'")
				}
				full = found[0]
			}
			need := sedLongOpts[full]
			if hasVal && need == 0 {
				return nil, nil, usage("sed: option '--" + full + "' doesn't allow an argument")
			}
			if !hasVal && need == 1 {
				if i+1 >= len(args) {
					return nil, nil, usage("sed: option '--" + full + "' requires an argument")
				}
				i++
				val = args[i]
			}
			switch full {
			case "quiet", "silent":
				o.quiet = true
			case "expression":
				addExpr(val)
			case "file":
				if err := addFile(val); err != nil {
					return nil, nil, err
				}
			case "regexp-extended":
				o.ere = true
			case "separate":
				o.separate = true
			case "in-place":
				o.inPlace, o.separate, o.suffix = true, true, val
			case "line-length":
				n, err := strconv.Atoi(val)
				if err != nil || n < 0 {
					return nil, nil, &sedFail{status: 1, msg: "invalid line length: " + val}
				}
				o.lineLen = n
			case "null-data", "zero-terminated":
				o.nullData = true
			case "help":
				o.help = true
			case "version":
				o.version = true
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			operands = append(operands, a)
			continue
		}
	short:
		for j := 1; j < len(a); j++ {
			switch ch := a[j]; ch {
			case 'n':
				o.quiet = true
			case 'E', 'r':
				o.ere = true
			case 's':
				o.separate = true
			case 'u', 'b':
			case 'z':
				o.nullData = true
			case 'i':
				o.inPlace, o.separate, o.suffix = true, true, a[j+1:]
				break short
			case 'e', 'f', 'l':
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return nil, nil, usage(fmt.Sprintf("sed: option requires an argument -- '%c'", ch))
					}
					i++
					val = args[i]
				}
				switch ch {
				case 'e':
					addExpr(val)
				case 'f':
					if err := addFile(val); err != nil {
						return nil, nil, err
					}
				case 'l':
					n, err := strconv.Atoi(val)
					if err != nil || n < 0 {
						return nil, nil, &sedFail{status: 1, msg: "invalid line length: " + val}
					}
					o.lineLen = n
				}
				break short
			case 'h':
				o.help = true
			case 'V':
				o.version = true
			default:
				return nil, nil, usage(fmt.Sprintf("sed: invalid option -- '%c'", ch))
			}
		}
	}
	if o.help || o.version {
		return o, nil, nil
	}
	if !haveScript {
		if len(operands) == 0 {
			return nil, nil, usage("")
		}
		addExpr(operands[0])
		operands = operands[1:]
	}
	return o, operands, nil
}
