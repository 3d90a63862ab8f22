package shell

import (
	"context"
	"strings"
)

func init() { register(textDirname, "dirname") }

var dirnameFlags = textFlags{short: "z", long: map[string]string{"zero": "z"}}

// textDirname is dirname: strip the last component of file names.
//
// Supports several operands and -z.
func textDirname(ctx context.Context, c *Call, args []string) error {
	opts, names, err := textParse(dirnameFlags, args[1:])
	if err != nil {
		return textUsage(c, "dirname", 1, err)
	}
	eol := "\n"
	if len(opts) > 0 {
		eol = "\x00"
	}
	if len(names) == 0 {
		return textUsage(c, "dirname", 1, textUsagef("missing operand"))
	}
	var b strings.Builder
	for _, n := range names {
		b.WriteString(textDirName(n) + eol)
	}
	_, err = c.Stdout.Write([]byte(b.String()))
	return textFinish(c, "dirname", err)
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
