package textutil

import (
	"context"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textBasename, "basename") }

var basenameFlags = cmdutil.Flags{
	Short: "as:z",
	Long:  map[string]string{"multiple": "a", "suffix": "s:", "zero": "z"},
}

// textBasename is basename: strip the folder and an optional suffix from
// file names.
//
// Supports NAME [SUFFIX], -a/--multiple, -s/--suffix=SUFFIX (implies -a)
// and -z.
func textBasename(ctx context.Context, c *command.Call, args []string) error {
	opts, names, err := cmdutil.Parse(basenameFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "basename", 1, err)
	}
	multiple, suffix, eol := false, "", "\n"
	for _, o := range opts {
		switch o.Key {
		case "a":
			multiple = true
		case "s":
			multiple, suffix = true, o.Val
		case "z":
			eol = "\x00"
		}
	}
	if len(names) == 0 {
		return cmdutil.Usage(c, "basename", 1, cmdutil.Usagef("missing operand"))
	}
	if !multiple {
		if len(names) > 2 {
			return cmdutil.Usage(c, "basename", 1, cmdutil.Usagef("extra operand %s", cmdutil.Quote(names[2])))
		}
		if len(names) == 2 {
			suffix = names[1]
		}
		names = names[:1]
	}
	var b strings.Builder
	for _, n := range names {
		b.WriteString(textBaseName(n, suffix) + eol)
	}
	_, err = c.Stdout.Write([]byte(b.String()))
	return cmdutil.Finish(c, "basename", err)
}

// textBaseName is GNU basename of name, less suffix when the rest is not
// empty.
func textBaseName(name, suffix string) string {
	if name == "" {
		return ""
	}
	end := len(name)
	for end > 1 && name[end-1] == '/' {
		end--
	}
	name = name[:end]
	if name == "/" {
		return "/"
	}
	base := name[strings.LastIndexByte(name, '/')+1:]
	if suffix != "" && len(base) > len(suffix) && strings.HasSuffix(base, suffix) {
		base = base[:len(base)-len(suffix)]
	}
	return base
}
