package textutil

import (
	"context"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textYes, "yes") }

// textYes is yes: print its arguments joined by spaces ("y" without any)
// over and over until the reader goes away (a write error ends it
// quietly) or the context ends.
func textYes(ctx context.Context, c *command.Call, args []string) error {
	operands := args[1:]
	if len(operands) > 0 && operands[0] == "--" {
		operands = operands[1:]
	}
	line := "y\n"
	if len(operands) > 0 {
		line = strings.Join(operands, " ") + "\n"
	}
	n := max(1, 8192/len(line))
	buf := []byte(strings.Repeat(line, n))
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := c.Stdout.Write(buf); err != nil {
			if cmdutil.BrokenPipe(err) {
				return command.Exit(141)
			}
			return command.Exit(1)
		}
	}
}
