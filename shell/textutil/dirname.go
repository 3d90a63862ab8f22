package textutil

import (
	"context"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textDirname, "dirname") }

var dirnameFlags = cmdutil.Flags{Short: "z", Long: map[string]string{"zero": "z"}}

// textDirname is dirname: strip the last component of file names.
//
// Supports several operands and -z.
func textDirname(ctx context.Context, c *command.Call, args []string) error {
	opts, names, err := cmdutil.Parse(dirnameFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "dirname", 1, err)
	}
	eol := "\n"
	if len(opts) > 0 {
		eol = "\x00"
	}
	if len(names) == 0 {
		return cmdutil.Usage(c, "dirname", 1, cmdutil.Usagef("missing operand"))
	}
	var b strings.Builder
	for _, n := range names {
		b.WriteString(textDirName(n) + eol)
	}
	_, err = c.Stdout.Write([]byte(b.String()))
	return cmdutil.Finish(c, "dirname", err)
}

// textDirName is GNU dirname of p.
func textDirName(p string) string {
	i := len(p)
	for i > 1 && p[i-1] == '/' {
		i--
	}
	j := strings.LastIndexByte(p[:i], '/')
	if j < 0 {
		return "."
	}
	for j > 0 && p[j-1] == '/' {
		j--
	}
	if j == 0 {
		return "/"
	}
	return p[:j]
}
