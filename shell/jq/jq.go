package jq

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/itchyny/gojq"
)

func init() { command.Register(textJq, "jq") }

// jqOptions are one jq run's settings.
type jqOptions struct {
	raw, join, ascii, compact, nullInput, slurp, exitStatus, rawInput, tab bool
	indent                                                                 int
	filter                                                                 string
	haveFilter                                                             bool
	files                                                                  []string
	names                                                                  []string
	values                                                                 []any
	named                                                                  map[string]any
	positional                                                             []any
	order                                                                  *jqKeyOrder
}

// textJq is jq, on github.com/itchyny/gojq.
//
// Supports FILTER [FILES...] with -r, -j, -a, -c, -n, -s, -e, -R, -S,
// --tab, --indent N, -M/-C (never colors), --arg, --argjson, --slurpfile,
// --rawfile, --args, --jsonargs, -f FILE, $ENV/env and input/inputs.
// Output is formatted as jq 1.6 does (2-space indent, 17 significant
// digits). An object passed through from the input keeps its keys' order;
// one gojq builds or changes has its keys sorted (gojq keeps no order). Exit
// status: 2 on bad input or usage, 3 on a compile error, 5 on a runtime
// error, and with -e 1 when the last output is false or null, 4 when
// there was none.
func textJq(ctx context.Context, c *command.Call, args []string) error {
	o := &jqOptions{indent: 2, named: map[string]any{}, order: newJqKeyOrder()}
	if err := o.parse(c, args[1:]); err != nil {
		return err
	}
	q, err := gojq.Parse(o.filter)
	if err != nil {
		fmt.Fprintf(c.Stderr, "jq: error: %s\njq: 1 compile error\n", err)
		return command.Exit(3)
	}
	if defs, err := gojq.Parse(jqCompatDefs); err == nil {
		q.FuncDefs = append(q.FuncDefs, defs.FuncDefs...)
	}
	named := make(map[string]any, len(o.named))
	for k, v := range o.named {
		named[k] = v
	}
	names := append(append([]string{}, o.names...), "$ARGS")
	values := append(append([]any{}, o.values...), map[string]any{"named": named, "positional": o.positional})
	in := &jqInputs{ctx: ctx, c: c, files: o.files, raw: o.rawInput, order: o.order}
	if len(in.files) == 0 {
		in.files = []string{"-"}
	}
	var iter gojq.Iter = in
	if o.slurp {
		iter = in.slurped()
	}
	code, err := gojq.Compile(q,
		gojq.WithVariables(names),
		gojq.WithEnvironLoader(c.Environ),
		gojq.WithInputIter(iter))
	if err != nil {
		fmt.Fprintf(c.Stderr, "jq: error: %s\njq: 1 compile error\n", err)
		return command.Exit(3)
	}
	out := cmdutil.NewOut(c)
	enc := &jqEncoder{indent: o.indent, tab: o.tab, ascii: o.ascii, order: o.order}
	if o.compact {
		enc.indent = -1
	}
	status := 0
	var last any
	outputs := 0
	run := func(input any) bool {
		results := code.RunWithContext(ctx, input, values...)
		for {
			v, ok := results.Next()
			if !ok {
				return true
			}
			if err, isErr := v.(error); isErr {
				var halt *gojq.HaltError
				if errors.As(err, &halt) {
					if hv := halt.Value(); hv != nil {
						out.Flush()
						if s, isStr := hv.(string); isStr {
							io.WriteString(c.Stderr, s)
						} else {
							fmt.Fprintf(c.Stderr, "%s\n", enc.encode(hv, -1))
						}
					}
					status = halt.ExitCode()
					return false
				}
				if ctx.Err() != nil {
					return false
				}
				out.Flush()
				fmt.Fprintf(c.Stderr, "jq: error (at %s): %s\n", in.position(o.nullInput), jqErrText(err))
				status = 5
				continue
			}
			outputs++
			last = v
			if s, isStr := v.(string); isStr && (o.raw || o.join) {
				out.WriteString(s)
			} else {
				out.WriteString(enc.encode(v, enc.indent))
			}
			if !o.join {
				out.WriteByte('\n')
			}
		}
	}
	if o.nullInput {
		run(nil)
	} else {
		for {
			v, ok := iter.Next()
			if !ok {
				break
			}
			if err, isErr := v.(error); isErr {
				if ctx.Err() != nil {
					break
				}
				out.Flush()
				var ferr *jqFileError
				if errors.As(err, &ferr) {
					fmt.Fprintf(c.Stderr, "jq: error: Could not open %s: %s\n", ferr.name, cmdutil.ErrText(ferr.err))
					status = 2
					continue
				}
				fmt.Fprintf(c.Stderr, "jq: error (at %s): %s\n", in.position(false), err)
				status = jqParseErrorStatus
				break
			}
			if !run(v) {
				break
			}
		}
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, "jq", err)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if status == 0 && o.exitStatus {
		switch {
		case outputs == 0:
			status = 4
		case last == nil || last == false:
			status = 1
		}
	}
	return command.Exit(status)
}

// jqParseErrorStatus is the exit status for input that is not JSON: 2
// as jq 1.7 documents (jq 1.6 exited 4).
const jqParseErrorStatus = 2

// jqCompatDefs are jq 1.6 builtins gojq leaves out.
const jqCompatDefs = `def leaf_paths: paths(scalars); .`

// jqErrText is a gojq runtime error as jq users expect to read it.
func jqErrText(err error) string {
	var ve interface{ Value() any }
	if errors.As(err, &ve) {
		if s, ok := ve.Value().(string); ok {
			return s
		}
		if ve.Value() == nil {
			return "null (null)"
		}
		return (&jqEncoder{indent: -1}).encode(ve.Value(), -1) + " (not a string)"
	}
	return err.Error()
}

// parse reads jq's command line.
func (o *jqOptions) parse(c *command.Call, args []string) error {
	usage := func(format string, a ...any) error {
		fmt.Fprintf(c.Stderr, "jq: %s\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n", fmt.Sprintf(format, a...))
		return command.Exit(2)
	}
	positional := "" // "", "args" or "jsonargs"
	need := func(i, n int, opt string) error {
		if i+n >= len(args) {
			return usage("%s takes %d parameters (e.g. %s name value)", opt, n, opt)
		}
		return nil
	}
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if positional != "" && o.haveFilter && !strings.HasPrefix(a, "-") {
			if positional == "args" {
				o.positional = append(o.positional, a)
			} else {
				var v any
				if err := o.decodeOne(a, &v); err != nil {
					return usage("Invalid JSON text passed to --jsonargs")
				}
				o.positional = append(o.positional, v)
			}
			continue
		}
		switch a {
		case "--":
			for _, rest := range args[i+1:] {
				if !o.haveFilter {
					o.filter, o.haveFilter = rest, true
				} else if positional == "args" {
					o.positional = append(o.positional, rest)
				} else if positional == "jsonargs" {
					var v any
					if err := o.decodeOne(rest, &v); err != nil {
						return usage("Invalid JSON text passed to --jsonargs")
					}
					o.positional = append(o.positional, v)
				} else {
					operands = append(operands, rest)
				}
			}
			i = len(args)
			continue
		case "--raw-output":
			o.raw = true
		case "--join-output":
			o.raw, o.join = true, true
		case "--ascii-output":
			o.ascii = true
		case "--compact-output":
			o.compact = true
		case "--null-input":
			o.nullInput = true
		case "--slurp":
			o.slurp = true
		case "--exit-status":
			o.exitStatus = true
		case "--raw-input":
			o.rawInput = true
		case "--sort-keys", "--color-output", "--monochrome-output", "--unbuffered", "--seq", "--stream-errors":
		case "--tab":
			o.tab, o.indent = true, 1
		case "--indent":
			if err := need(i, 1, a); err != nil {
				return err
			}
			n, err := strconv.Atoi(args[i+1])
			if err != nil || n < 0 || n > 7 {
				return usage("Cannot indent more than 7 characters")
			}
			o.indent = n
			if n == 0 {
				o.compact = true
			}
			i++
		case "--arg", "--argjson", "--slurpfile", "--rawfile":
			if err := need(i, 2, a); err != nil {
				return err
			}
			name, val := args[i+1], args[i+2]
			i += 2
			var v any
			switch a {
			case "--arg":
				v = val
			case "--argjson":
				if err := o.decodeOne(val, &v); err != nil {
					return usage("Invalid JSON text passed to --argjson")
				}
			case "--slurpfile", "--rawfile":
				r, err := cmdutil.Open(c, val)
				if err != nil {
					fmt.Fprintf(c.Stderr, "jq: error: Could not open %s: %s\n", val, cmdutil.ErrText(err))
					return command.Exit(2)
				}
				data, err := io.ReadAll(r)
				r.Close()
				if err != nil {
					return c.Errorf(2, "jq", "error: %s", cmdutil.ErrText(err))
				}
				if a == "--rawfile" {
					v = string(data)
				} else {
					var all []any
					dec := json.NewDecoder(strings.NewReader(string(data)))
					dec.UseNumber()
					for {
						x, err := o.order.decode(dec)
						if err == io.EOF {
							break
						} else if err != nil {
							fmt.Fprintf(c.Stderr, "jq: Bad JSON in --slurpfile %s %s: %s\n", name, val, err)
							return command.Exit(2)
						}
						all = append(all, x)
					}
					if all == nil {
						all = []any{}
					}
					v = all
				}
			}
			o.names = append(o.names, "$"+name)
			o.values = append(o.values, v)
			o.named[name] = v
		case "--args":
			positional = "args"
		case "--jsonargs":
			positional = "jsonargs"
		case "--from-file":
			if err := need(i, 1, a); err != nil {
				return err
			}
			if err := o.fromFile(c, args[i+1]); err != nil {
				return err
			}
			i++
		default:
			if strings.HasPrefix(a, "--") {
				return usage("Unknown option: %s", a)
			}
			if len(a) > 1 && a[0] == '-' {
				for j := 1; j < len(a); j++ {
					switch a[j] {
					case 'r':
						o.raw = true
					case 'j':
						o.raw, o.join = true, true
					case 'a':
						o.ascii = true
					case 'c':
						o.compact = true
					case 'n':
						o.nullInput = true
					case 's':
						o.slurp = true
					case 'e':
						o.exitStatus = true
					case 'R':
						o.rawInput = true
					case 'S', 'C', 'M':
					case 'f':
						if err := need(i, 1, "-f"); err != nil {
							return err
						}
						if err := o.fromFile(c, args[i+1]); err != nil {
							return err
						}
						i++
					case 'h':
						io.WriteString(c.Stdout, "Usage:\tjq [OPTIONS] FILTER [FILES...]\n")
						return command.Exit(0)
					default:
						return usage("Unknown option: %s", a)
					}
				}
				continue
			}
			if !o.haveFilter {
				o.filter, o.haveFilter = a, true
			} else {
				operands = append(operands, a)
			}
		}
	}
	if !o.haveFilter {
		if len(operands) == 0 {
			o.filter, o.haveFilter = ".", true
		}
	}
	o.files = operands
	if o.positional == nil {
		o.positional = []any{}
	}
	return nil
}

// fromFile reads the filter from a file (-f); the operand that would have
// been the filter is then a file.
func (o *jqOptions) fromFile(c *command.Call, name string) error {
	r, err := cmdutil.Open(c, name)
	if err != nil {
		fmt.Fprintf(c.Stderr, "jq: error: Could not open %s: %s\n", name, cmdutil.ErrText(err))
		return command.Exit(2)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return c.Errorf(2, "jq", "error: %s", cmdutil.ErrText(err))
	}
	if o.haveFilter {
		o.files = append(o.files, o.filter)
	}
	o.filter, o.haveFilter = string(data), true
	return nil
}

// decodeOne decodes exactly one JSON value.
func (o *jqOptions) decodeOne(s string, v *any) error {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	x, err := o.order.decode(dec)
	if err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data")
	}
	*v = x
	return nil
}

// jqFileError is an input file that cannot be opened.
type jqFileError struct {
	name string
	err  error
}

func (e *jqFileError) Error() string { return e.name + ": " + e.err.Error() }

// jqInputs is the stream of input values (or raw lines, with -R) of all
// the files in turn; errors come as values, as gojq's iterators do.
type jqInputs struct {
	ctx   context.Context
	c     *command.Call
	files []string
	raw   bool
	order *jqKeyOrder
	name  string
	cur   io.ReadCloser
	dec   *json.Decoder
	lines *bufio.Reader
	done  bool
}

// position names where the current input came from, for messages.
func (in *jqInputs) position(nullInput bool) string {
	switch {
	case nullInput || in.name == "":
		return "<unknown>"
	case in.name == "-":
		return "<stdin>"
	}
	return in.name
}

func (in *jqInputs) open() error {
	for in.cur == nil {
		if len(in.files) == 0 {
			return io.EOF
		}
		name := in.files[0]
		in.files = in.files[1:]
		r, err := cmdutil.Open(in.c, name)
		if err != nil {
			return &jqFileError{name, err}
		}
		in.name, in.cur = name, r
		cr := posixfs.ContextReader(in.ctx, r)
		if in.raw {
			in.lines = bufio.NewReaderSize(cr, 64*1024)
		} else {
			in.dec = json.NewDecoder(cr)
			in.dec.UseNumber()
		}
	}
	return nil
}

func (in *jqInputs) closeCur() {
	if in.cur != nil {
		in.cur.Close()
		in.cur, in.dec, in.lines = nil, nil, nil
	}
}

// Next implements gojq.Iter.
func (in *jqInputs) Next() (any, bool) {
	for !in.done {
		if err := in.open(); err != nil {
			if err == io.EOF {
				in.done = true
				return nil, false
			}
			return err, true
		}
		if in.raw {
			line, err := in.lines.ReadString('\n')
			if line != "" {
				return strings.TrimSuffix(line, "\n"), true
			}
			in.closeCur()
			if err != nil && err != io.EOF {
				in.done = true
				return err, true
			}
			continue
		}
		v, err := in.order.decode(in.dec)
		if err == io.EOF {
			in.closeCur()
			continue
		}
		if err != nil {
			in.done = true
			in.closeCur()
			return fmt.Errorf("cannot parse JSON: %w", err), true
		}
		return v, true
	}
	return nil, false
}

// slurped is the iterator of -s: one array of all the values (one string
// of all the text with -R).
func (in *jqInputs) slurped() gojq.Iter {
	return &jqSlurp{in: in}
}

type jqSlurp struct {
	in   *jqInputs
	done bool
}

func (s *jqSlurp) Next() (any, bool) {
	if s.done {
		return nil, false
	}
	s.done = true
	if s.in.raw {
		var b strings.Builder
		for {
			if err := s.in.open(); err != nil {
				if err == io.EOF {
					return b.String(), true
				}
				return err, true
			}
			data, err := io.ReadAll(s.in.lines)
			b.Write(data)
			s.in.closeCur()
			if err != nil {
				return err, true
			}
		}
	}
	all := []any{}
	for {
		v, ok := s.in.Next()
		if !ok {
			return all, true
		}
		if err, isErr := v.(error); isErr {
			return err, true
		}
		all = append(all, v)
	}
}
