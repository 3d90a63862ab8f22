package codec

import (
	"bufio"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

func init() { command.Register(textXxd, "xxd") }

var xxdFlags = cmdutil.Flags{
	Short: "c:g:l:s:uprio:",
	Long: map[string]string{
		"cols": "c:", "groupsize": "g:", "len": "l:", "seek": "s:", "plain": "p", "ps": "p",
		"revert": "r", "include": "i",
	},
}

// textXxd is xxd: make a hex dump or reverse one.
//
// Supports the default dump ("00000000: 6865 6c6c  hell"), -p (plain
// hex), -r (reverse, plain with -p or the default format), -i (C
// include), -c COLS, -g BYTES, -l LEN, -s OFFSET and -u; an optional
// output file operand.
func textXxd(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(xxdFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "xxd", 1, err)
	}
	cols, group, limit, seek := 16, 2, int64(-1), int64(0)
	plain, revert, upper, include := false, false, false, false
	colsSet := false
	num := func(s string) (int64, bool) {
		n, err := strconv.ParseInt(s, 0, 64)
		return n, err == nil && n >= 0
	}
	for _, o := range opts {
		switch o.Key {
		case "c":
			n, ok := num(o.Val)
			if !ok || n == 0 || n > 256 {
				return c.Errorf(1, "xxd", "invalid number of columns (max. 256).")
			}
			cols, colsSet = int(n), true
		case "g":
			n, ok := num(o.Val)
			if !ok {
				return c.Errorf(1, "xxd", "invalid group size")
			}
			group = int(n)
		case "l":
			n, ok := num(o.Val)
			if !ok {
				return c.Errorf(1, "xxd", "invalid length")
			}
			limit = n
		case "s":
			n, ok := num(strings.TrimPrefix(o.Val, "+"))
			if !ok {
				return c.Errorf(1, "xxd", "invalid seek offset")
			}
			seek = n
		case "p":
			plain = true
		case "r":
			revert = true
		case "u":
			upper = true
		case "i":
			include = true
		}
	}
	if plain && !colsSet {
		cols = 30
	}
	if include && !colsSet {
		cols = 12
	}
	if len(files) > 2 {
		return cmdutil.Usage(c, "xxd", 1, cmdutil.Usagef("too many arguments"))
	}
	name := "-"
	if len(files) > 0 {
		name = files[0]
	}
	r, err := cmdutil.Open(c, name)
	if err != nil {
		return c.Errorf(2, "xxd", "%s: %s", name, cmdutil.ErrText(err))
	}
	defer r.Close()
	w := c.Stdout
	if len(files) == 2 && files[1] != "-" {
		f, err := cmdutil.Create(c, files[1], 0x241) // O_WRONLY|O_CREATE|O_TRUNC
		if err != nil {
			return c.Errorf(2, "xxd", "%s: %s", files[1], cmdutil.ErrText(err))
		}
		defer f.Close()
		w = f
	}
	out := bufio.NewWriterSize(w, 32*1024)
	in := io.Reader(posixfs.ContextReader(ctx, r))
	if revert {
		err = xxdRevert(in, out, plain)
	} else {
		if seek > 0 {
			if _, err := io.CopyN(io.Discard, in, seek); err != nil && err != io.EOF {
				return cmdutil.Finish(c, "xxd", err)
			}
		}
		if limit >= 0 {
			in = io.LimitReader(in, limit)
		}
		digits := "0123456789abcdef"
		if upper {
			digits = "0123456789ABCDEF"
		}
		switch {
		case include:
			err = xxdInclude(in, out, name, cols, digits)
		case plain:
			err = xxdPlain(in, out, cols, digits)
		default:
			err = xxdDump(in, out, cols, group, seek, digits)
		}
	}
	if ferr := out.Flush(); err == nil && ferr != nil {
		err = &cmdutil.WriteError{Err: ferr}
	}
	return cmdutil.Finish(c, "xxd", err)
}

func xxdDump(in io.Reader, out *bufio.Writer, cols, group int, offset int64, digits string) error {
	if group <= 0 || group > cols {
		group = cols
	}
	hexWidth := cols*2 + (cols+group-1)/group - 1
	buf := make([]byte, cols)
	for {
		n, err := io.ReadFull(in, buf)
		if n > 0 {
			fmt.Fprintf(out, "%08x: ", offset)
			var h strings.Builder
			for i, b := range buf[:n] {
				if i > 0 && i%group == 0 {
					h.WriteByte(' ')
				}
				h.WriteByte(digits[b>>4])
				h.WriteByte(digits[b&15])
			}
			out.WriteString(h.String())
			out.WriteString(strings.Repeat(" ", hexWidth-h.Len()+2))
			for _, b := range buf[:n] {
				if b >= 0x20 && b < 0x7f {
					out.WriteByte(b)
				} else {
					out.WriteByte('.')
				}
			}
			out.WriteByte('\n')
			offset += int64(n)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func xxdPlain(in io.Reader, out *bufio.Writer, cols int, digits string) error {
	buf := make([]byte, cols)
	for {
		n, err := io.ReadFull(in, buf)
		if n > 0 {
			for _, b := range buf[:n] {
				out.WriteByte(digits[b>>4])
				out.WriteByte(digits[b&15])
			}
			out.WriteByte('\n')
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func xxdInclude(in io.Reader, out *bufio.Writer, name string, cols int, digits string) error {
	data, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	ident := ""
	if name != "-" {
		ident = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				return r
			}
			return '_'
		}, name)
		if ident != "" && ident[0] >= '0' && ident[0] <= '9' {
			ident = "__" + ident
		}
		fmt.Fprintf(out, "unsigned char %s[] = {\n", ident)
	}
	for i, b := range data {
		if i%cols == 0 {
			out.WriteString("  ")
		}
		fmt.Fprintf(out, "0x%c%c", digits[b>>4], digits[b&15])
		switch {
		case i == len(data)-1:
			out.WriteByte('\n')
		case (i+1)%cols == 0:
			out.WriteString(",\n")
		default:
			out.WriteString(", ")
		}
	}
	if ident != "" {
		fmt.Fprintf(out, "};\nunsigned int %s_len = %d;\n", ident, len(data))
	}
	return nil
}

// xxdRevert turns a dump back into bytes: plain hex with -p, else the
// default format's offset and hex columns (the text column is ignored).
func xxdRevert(in io.Reader, out *bufio.Writer, plain bool) error {
	br := bufio.NewReader(in)
	var pending []byte
	flushHex := func(s string) {
		for _, ch := range s {
			if strings.ContainsRune("0123456789abcdefABCDEF", ch) {
				pending = append(pending, byte(ch))
				if len(pending) == 2 {
					var b [1]byte
					hex.Decode(b[:], pending)
					out.WriteByte(b[0])
					pending = pending[:0]
				}
			}
		}
	}
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			if plain {
				flushHex(line)
			} else if i := strings.Index(line, ": "); i >= 0 {
				rest := line[i+2:]
				if j := strings.Index(rest, "  "); j >= 0 {
					rest = rest[:j]
				}
				pending = pending[:0]
				flushHex(rest)
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
