package codec

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"strconv"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textBase64, "base64") }

var base64Flags = cmdutil.Flags{
	Short: "diw:",
	Long:  map[string]string{"decode": "d", "ignore-garbage": "i", "wrap": "w:"},
}

// textBase64 is base64: encode or decode standard input or a file.
//
// Supports -d/--decode, -i/--ignore-garbage and -w/--wrap=COLS (76 by
// default, 0 for none). Decoding skips newlines, accepts concatenated
// padded blocks and fails with "invalid input" (status 1) after writing
// what it could decode.
func textBase64(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(base64Flags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "base64", 1, err)
	}
	decode, garbage, wrap := false, false, 76
	for _, o := range opts {
		switch o.Key {
		case "d":
			decode = true
		case "i":
			garbage = true
		case "w":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n < 0 {
				return c.Errorf(1, "base64", "invalid wrap size: %s", cmdutil.Quote(o.Val))
			}
			wrap = n
		}
	}
	if len(files) > 1 {
		return cmdutil.Usage(c, "base64", 1, cmdutil.Usagef("extra operand %s", cmdutil.Quote(files[1])))
	}
	name := "-"
	if len(files) == 1 {
		name = files[0]
	}
	r, err := cmdutil.Open(c, name)
	if err != nil {
		return c.Errorf(1, "base64", "%s: %s", name, cmdutil.ErrText(err))
	}
	defer r.Close()
	out := cmdutil.NewOut(c)
	if decode {
		err = base64Decode(ctx, out, r, garbage)
	} else {
		err = base64Encode(ctx, out, r, wrap)
	}
	if ferr := cmdutil.Flush(out); err == nil {
		err = ferr
	}
	if err == errBase64Invalid {
		return c.Errorf(1, "base64", "invalid input")
	}
	if err != nil {
		if _, isWrite := err.(*cmdutil.WriteError); !isWrite && ctx.Err() == nil {
			return c.Errorf(1, "base64", "read error: %s", cmdutil.ErrText(err))
		}
	}
	return cmdutil.Finish(c, "base64", err)
}

var errBase64Invalid = fmt.Errorf("invalid input")

func base64Encode(ctx context.Context, out cmdutil.Out, r io.Reader, wrap int) error {
	buf := make([]byte, 3*16*1024)
	col := 0
	var carry []byte
	emit := func(text []byte) {
		for len(text) > 0 {
			if wrap == 0 {
				out.Write(text)
				return
			}
			n := min(wrap-col, len(text))
			out.Write(text[:n])
			text = text[n:]
			col += n
			if col == wrap {
				out.WriteByte('\n')
				col = 0
			}
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := r.Read(buf)
		data := append(carry, buf[:n]...)
		whole := len(data) / 3 * 3
		if whole > 0 {
			enc := make([]byte, base64.StdEncoding.EncodedLen(whole))
			base64.StdEncoding.Encode(enc, data[:whole])
			emit(enc)
		}
		carry = append([]byte(nil), data[whole:]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if len(carry) > 0 {
		emit([]byte(base64.StdEncoding.EncodeToString(carry)))
	}
	if wrap > 0 && col > 0 {
		out.WriteByte('\n')
	}
	return nil
}

func base64IsAlpha(b byte) bool {
	return b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '+' || b == '/'
}

func base64Decode(ctx context.Context, out cmdutil.Out, r io.Reader, garbage bool) error {
	buf := make([]byte, 64*1024)
	var pending []byte // cleaned characters not yet decoded (< 4)
	dec := make([]byte, 3)
	decodeQuads := func(final bool) error {
		i := 0
		for ; i+4 <= len(pending); i += 4 {
			q := pending[i : i+4]
			n, err := base64Quad(q, dec)
			if err != nil {
				return err
			}
			out.Write(dec[:n])
		}
		pending = append(pending[:0], pending[i:]...)
		if final && len(pending) > 0 {
			// Unpadded end: decode what there is, then complain.
			if len(pending) >= 2 {
				q := append(append([]byte(nil), pending...), '=', '=')[:4]
				if n, err := base64Quad(q, dec); err == nil {
					out.Write(dec[:n])
				}
			}
			return errBase64Invalid
		}
		return nil
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, rerr := r.Read(buf)
		for _, b := range buf[:n] {
			switch {
			case b == '\n':
			case base64IsAlpha(b) || b == '=':
				pending = append(pending, b)
			case garbage:
			default:
				if err := decodeQuads(false); err != nil {
					return err
				}
				return errBase64Invalid
			}
			if len(pending) >= 4*1024 {
				if err := decodeQuads(false); err != nil {
					return err
				}
			}
		}
		if rerr == io.EOF {
			return decodeQuads(true)
		}
		if rerr != nil {
			return rerr
		}
	}
}

// base64Quad decodes one group of four characters.
func base64Quad(q, dst []byte) (int, error) {
	pad := 0
	switch {
	case q[2] == '=' && q[3] == '=':
		pad = 2
	case q[3] == '=':
		pad = 1
	}
	for k := 0; k < 4-pad; k++ {
		if q[k] == '=' {
			return 0, errBase64Invalid
		}
	}
	n, err := base64.StdEncoding.Decode(dst, q)
	if err != nil {
		return 0, errBase64Invalid
	}
	return n, nil
}
