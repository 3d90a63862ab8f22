// Package shuf is GNU shuf: a random permutation of its input lines, of
// -e's arguments or of -i LO-HI; -n N at most N of them, -r with
// repetition (then -n is needed for an end), -z NUL-terminated, -o FILE.
// The randomness is crypto/rand's (--random-source is refused: a
// reproducible order is not offered). Importing the package registers it
// (shell/command).
package shuf

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"math/big"
	"os"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(shuf, "shuf") }

func shuf(ctx context.Context, c *command.Call, args []string) error {
	var echo, repeat, zero bool
	count := int64(-1)
	rng, out := "", ""
	var ops []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		val := func(short, long string) (string, bool) {
			if v, ok := strings.CutPrefix(a, long+"="); ok {
				return v, true
			}
			if (a == short || a == long) && i+1 < len(args) {
				i++
				return args[i], true
			}
			if strings.HasPrefix(a, short) && len(a) > 2 && !strings.HasPrefix(a, "--") {
				return a[2:], true
			}
			return "", false
		}
		switch {
		case a == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case a == "-e" || a == "--echo":
			echo = true
		case a == "-r" || a == "--repeat":
			repeat = true
		case a == "-z" || a == "--zero-terminated":
			zero = true
		case strings.HasPrefix(a, "-n") || strings.HasPrefix(a, "--head-count"):
			v, _ := val("-n", "--head-count")
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return c.Errorf(1, "shuf", "invalid line count: %s", quote(v))
			}
			if count < 0 || n < count {
				count = n
			}
		case strings.HasPrefix(a, "-i") || strings.HasPrefix(a, "--input-range"):
			rng, _ = val("-i", "--input-range")
		case strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "--output"):
			out, _ = val("-o", "--output")
		case strings.HasPrefix(a, "--random-source"):
			return c.Errorf(1, "shuf", "--random-source is not supported in this sandbox")
		case len(a) > 1 && a[0] == '-' && !echo:
			fmt.Fprintf(c.Stderr, "shuf: invalid option -- '%s'\nTry 'shuf --help' for more information.\n", strings.TrimLeft(a, "-"))
			return command.Exit(1)
		default:
			ops = append(ops, a)
		}
	}
	sep := byte('\n')
	if zero {
		sep = 0
	}
	var items []string
	switch {
	case rng != "":
		lo, hi, ok := strings.Cut(rng, "-")
		l, err1 := strconv.ParseUint(lo, 10, 64)
		h, err2 := strconv.ParseUint(hi, 10, 64)
		if !ok || err1 != nil || err2 != nil || h+1 < l {
			return c.Errorf(1, "shuf", "invalid input range: %s", quote(rng))
		}
		if len(ops) > 0 {
			fmt.Fprintf(c.Stderr, "shuf: extra operand %s\nTry 'shuf --help' for more information.\n", quote(ops[0]))
			return command.Exit(1)
		}
		if h-l > 1<<24 && !repeat {
			return c.Errorf(1, "shuf", "input range too large for this sandbox: %s", quote(rng))
		}
		for n := l; n <= h && (repeat && n < l+1<<24 || !repeat); n++ {
			items = append(items, strconv.FormatUint(n, 10))
		}
	case echo:
		items = ops
	default:
		if len(ops) > 1 {
			fmt.Fprintf(c.Stderr, "shuf: extra operand %s\nTry 'shuf --help' for more information.\n", quote(ops[1]))
			return command.Exit(1)
		}
		var data []byte
		var err error
		if len(ops) == 0 || ops[0] == "-" {
			data, err = command.ReadAll(ctx, c.Stdin)
		} else {
			var f io.ReadCloser
			if f, err = c.FS.Open(c.Abs(ops[0])); err == nil {
				data, err = command.ReadAll(ctx, f)
				f.Close()
			}
		}
		if err != nil {
			return c.Errorf(1, "shuf", "%s: No such file or directory", ops[0])
		}
		data = bytes.TrimSuffix(data, []byte{sep})
		if len(data) > 0 {
			for _, l := range bytes.Split(data, []byte{sep}) {
				items = append(items, string(l))
			}
		}
	}
	w := c.Stdout
	if out != "" {
		f, err := c.FS.OpenFile(c.Abs(out), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			return c.Errorf(1, "shuf", "%s: %v", quote(out), err)
		}
		defer f.Close()
		w = f
	}
	emit := func(s string) error {
		_, err := io.WriteString(w, s+string(sep))
		return err
	}
	if repeat {
		if len(items) == 0 {
			if count > 0 {
				return c.Errorf(1, "shuf", "no lines to repeat")
			}
			return nil
		}
		for n := int64(0); count < 0 || n < count; n++ {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err := emit(items[randN(len(items))]); err != nil {
				return nil // the reader went away
			}
		}
		return nil
	}
	for i := len(items) - 1; i > 0; i-- {
		j := randN(i + 1)
		items[i], items[j] = items[j], items[i]
	}
	if count >= 0 && int64(len(items)) > count {
		items = items[:count]
	}
	for _, s := range items {
		if err := emit(s); err != nil {
			return nil
		}
	}
	return nil
}

func randN(n int) int {
	v, err := rand.Int(rand.Reader, big.NewInt(int64(n)))
	if err != nil {
		return 0
	}
	return int(v.Int64())
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
