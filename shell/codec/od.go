package codec

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

func init() { command.Register(textOd, "od") }

var odFlags = cmdutil.Flags{
	Short: "A:bcdij:N:ost:vw::x",
	Long: map[string]string{
		"address-radix": "A:", "skip-bytes": "j:", "read-bytes": "N:", "format": "t:",
		"output-duplicates": "v", "width": "w::",
	},
}

// odType is one output format: kind (a c d o u x) and size in bytes.
type odType struct {
	kind  byte
	size  int
	width int  // printf width of one field
	text  bool // z: the printable characters after the fields
}

var odNames = []string{"nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr", "so", "si",
	"dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp"}

// textOd is od: dump files in octal and other formats.
//
// Supports -A d|o|x|n, -t TYPE (a, c, d/o/u/x with sizes 1 2 4 8 or
// C S I L), -b, -c, -d, -i, -o, -s, -x, -j SKIP, -N COUNT, -v and -w[N];
// repeated lines are shown as "*" unless -v. Multi-byte values are little
// endian.
func textOd(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(odFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "od", 1, err)
	}
	radix := byte('o')
	var types []odType
	skip, limit := int64(0), int64(-1)
	dups := false
	width := 16
	add := func(spec string) error {
		for spec != "" {
			k := spec[0]
			spec = spec[1:]
			size := 1
			switch k {
			case 'a', 'c':
			case 'd', 'o', 'u', 'x':
				size = 4
				if spec != "" {
					switch spec[0] {
					case 'C':
						size, spec = 1, spec[1:]
					case 'S':
						size, spec = 2, spec[1:]
					case 'I':
						size, spec = 4, spec[1:]
					case 'L':
						size, spec = 8, spec[1:]
					default:
						i := 0
						for i < len(spec) && spec[i] >= '0' && spec[i] <= '9' {
							i++
						}
						if i > 0 {
							n, _ := strconv.Atoi(spec[:i])
							if n != 1 && n != 2 && n != 4 && n != 8 {
								return fmt.Errorf("invalid type string %s;\nthis system doesn't provide a %d-byte integral type", cmdutil.Quote(string(k)+spec), n)
							}
							size, spec = n, spec[i:]
						}
					}
				}
			default:
				return fmt.Errorf("invalid type string %s", cmdutil.Quote(string(k)+spec))
			}
			t := odType{kind: k, size: size, width: odWidth(k, size)}
			if strings.HasPrefix(spec, "z") {
				t.text, spec = true, spec[1:]
			}
			types = append(types, t)
		}
		return nil
	}
	for _, o := range opts {
		var err error
		switch o.Key {
		case "A":
			if o.Val != "d" && o.Val != "o" && o.Val != "x" && o.Val != "n" {
				return c.Errorf(1, "od", "invalid output address radix '%s'; it must be one character from [doxn]", o.Val)
			}
			radix = o.Val[0]
		case "t":
			err = add(o.Val)
		case "b":
			err = add("o1")
		case "c":
			err = add("c")
		case "d":
			err = add("u2")
		case "i":
			err = add("d4")
		case "o":
			err = add("o2")
		case "s":
			err = add("d2")
		case "x":
			err = add("x2")
		case "j":
			n, ok := cmdutil.ParseCount(o.Val)
			if !ok {
				return c.Errorf(1, "od", "invalid -j argument %s", cmdutil.Quote(o.Val))
			}
			skip = n
		case "N":
			n, ok := cmdutil.ParseCount(o.Val)
			if !ok {
				return c.Errorf(1, "od", "invalid -N argument %s", cmdutil.Quote(o.Val))
			}
			limit = n
		case "v":
			dups = true
		case "w":
			width = 32
			if o.Val != "" {
				n, err := strconv.Atoi(o.Val)
				if err != nil || n <= 0 {
					return c.Errorf(1, "od", "invalid -w argument %s", cmdutil.Quote(o.Val))
				}
				width = n
			}
		}
		if err != nil {
			return c.Errorf(1, "od", "%s", err.Error())
		}
	}
	if len(types) == 0 {
		add("o2")
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	var readers []io.Reader
	status := 0
	for _, name := range files {
		r, err := cmdutil.Open(c, name)
		if err != nil {
			fmt.Fprintf(c.Stderr, "od: %s: %s\n", name, cmdutil.ErrText(err))
			status = 1
			continue
		}
		defer r.Close()
		readers = append(readers, r)
	}
	in := io.Reader(posixfs.ContextReader(ctx, io.MultiReader(readers...)))
	if _, err := io.CopyN(io.Discard, in, skip); err != nil && err != io.EOF {
		return cmdutil.Finish(c, "od", err)
	}
	if limit >= 0 {
		in = io.LimitReader(in, limit)
	}
	// Each field of a type is padded so that all types line up.
	blockSize, blockWidth := 1, 0
	for _, t := range types {
		blockSize = max(blockSize, t.size)
	}
	for _, t := range types {
		blockWidth = max(blockWidth, blockSize/t.size*(t.width+1))
	}
	out := cmdutil.NewOut(c)
	addr := func(n int64) string {
		switch radix {
		case 'd':
			return fmt.Sprintf("%07d", n)
		case 'x':
			return fmt.Sprintf("%06x", n)
		case 'n':
			return ""
		}
		return fmt.Sprintf("%07o", n)
	}
	indent := strings.Repeat(" ", len(addr(0)))
	buf := make([]byte, width)
	var prev []byte
	starred := false
	offset := skip
	for {
		n, err := io.ReadFull(in, buf)
		if n == 0 {
			if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
				return cmdutil.Finish(c, "od", err)
			}
			break
		}
		chunk := buf[:n]
		if !dups && prev != nil && n == width && bytes.Equal(chunk, prev) {
			if !starred {
				out.WriteString("*\n")
				starred = true
			}
			offset += int64(n)
			continue
		}
		starred = false
		prev = append(prev[:0], chunk...)
		for i, t := range types {
			if i == 0 {
				out.WriteString(addr(offset))
			} else {
				out.WriteString(indent)
			}
			fields := blockSize / t.size
			pad := blockWidth - fields*(t.width+1)
			for p, k := 0, 0; p < n; p, k = p+t.size, k+1 {
				var word [8]byte
				copy(word[:], chunk[p:min(n, p+t.size)])
				j := k % fields
				extra := pad*(j+1)/fields - pad*j/fields
				fmt.Fprintf(out, "%*s", t.width+1+extra, odField(t, word[:t.size]))
			}
			if t.text {
				full := (width + blockSize - 1) / blockSize * blockWidth
				done := (n + blockSize - 1) / blockSize * blockWidth
				out.WriteString(strings.Repeat(" ", full-done) + "  >")
				for _, b := range chunk {
					if b < 0x20 || b >= 0x7f {
						b = '.'
					}
					out.WriteByte(b)
				}
				out.WriteString("<")
			}
			out.WriteByte('\n')
		}
		offset += int64(n)
		if err != nil {
			break
		}
	}
	if radix != 'n' {
		out.WriteString(addr(offset) + "\n")
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, "od", err)
	}
	return command.Exit(status)
}

func odWidth(k byte, size int) int {
	switch k {
	case 'a', 'c':
		return 3
	case 'x':
		return size * 2
	case 'o':
		return map[int]int{1: 3, 2: 6, 4: 11, 8: 22}[size]
	case 'u':
		return map[int]int{1: 3, 2: 5, 4: 10, 8: 20}[size]
	}
	return map[int]int{1: 4, 2: 6, 4: 11, 8: 20}[size]
}

// odField formats one value.
func odField(t odType, b []byte) string {
	var u uint64
	switch t.size {
	case 1:
		u = uint64(b[0])
	case 2:
		u = uint64(binary.LittleEndian.Uint16(b))
	case 4:
		u = uint64(binary.LittleEndian.Uint32(b))
	default:
		u = binary.LittleEndian.Uint64(b)
	}
	switch t.kind {
	case 'c':
		switch ch := b[0]; ch {
		case 0:
			return `\0`
		case '\a':
			return `\a`
		case '\b':
			return `\b`
		case '\f':
			return `\f`
		case '\n':
			return `\n`
		case '\r':
			return `\r`
		case '\t':
			return `\t`
		case '\v':
			return `\v`
		default:
			if ch >= 0x20 && ch < 0x7f {
				return string(rune(ch))
			}
			return fmt.Sprintf("%03o", ch)
		}
	case 'a':
		ch := b[0] & 0x7f
		switch {
		case ch <= 0x20:
			return odNames[ch]
		case ch == 0x7f:
			return "del"
		}
		return string(rune(ch))
	case 'x':
		return fmt.Sprintf("%0*x", t.width, u)
	case 'o':
		return fmt.Sprintf("%0*o", t.width, u)
	case 'u':
		return strconv.FormatUint(u, 10)
	}
	shift := 64 - 8*uint(t.size)
	return strconv.FormatInt(int64(u<<shift)>>shift, 10)
}
