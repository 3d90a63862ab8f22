package codec

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

func init() {
	command.Register(textHexdump, "hexdump")
	command.Register(textStrings, "strings")
}

// textHexdump is util-linux's hexdump for its two common displays: the
// default (16-bit little-endian words, "0000000 6568 6c6c") and -C
// (canonical: "00000000  68 65 6c 6c  ...  |hell|"), each line of 16 bytes,
// a line like the one before shown as "*" unless -v, and the length at
// the end; -n LENGTH, -s OFFSET (with GNU's size suffixes), the files one
// after another (stdin with none).
func textHexdump(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(cmdutil.Flags{Short: "Cvn:s:", Long: map[string]string{
		"canonical": "C", "no-squeezing": "v", "length": "n:", "skip": "s:",
	}}, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "hexdump", 1, err)
	}
	canonical, squeeze := false, true
	limit, skip := int64(-1), int64(0)
	for _, o := range opts {
		switch o.Key {
		case "C":
			canonical = true
		case "v":
			squeeze = false
		case "n", "s":
			n, ok := cmdutil.ParseCount(o.Val)
			if !ok {
				return c.Errorf(1, "hexdump", "failed to parse %s: '%s': Invalid argument", map[string]string{"n": "length", "s": "offset"}[o.Key], o.Val)
			}
			if o.Key == "n" {
				limit = n
			} else {
				skip = n
			}
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	var readers []io.Reader
	failed := 0
	for _, name := range files {
		if name == "-" && skip > 0 {
			// util-linux seeks, which a pipe cannot
			fmt.Fprintln(c.Stderr, "hexdump: stdin: Illegal seek")
			return command.Exit(1)
		}
		r, err := cmdutil.Open(c, name)
		if err != nil {
			fmt.Fprintf(c.Stderr, "hexdump: %s: %s\n", name, cmdutil.ErrText(err))
			failed++
			continue
		}
		defer r.Close()
		readers = append(readers, r)
	}
	if failed == len(files) {
		fmt.Fprintln(c.Stderr, "hexdump: all input file arguments failed")
		return command.Exit(1)
	}
	in := io.Reader(posixfs.ContextReader(ctx, io.MultiReader(readers...)))
	skipped, err := io.CopyN(io.Discard, in, skip)
	if err != nil && err != io.EOF {
		return cmdutil.Finish(c, "hexdump", err)
	}
	if limit >= 0 {
		in = io.LimitReader(in, limit)
	}
	out := cmdutil.NewOut(c)
	offset := skipped
	var prev []byte
	starred := false
	buf := make([]byte, 16)
	for {
		n, err := io.ReadFull(in, buf)
		if n > 0 {
			line := buf[:n]
			switch {
			case squeeze && n == 16 && bytes.Equal(line, prev):
				if !starred {
					out.WriteString("*\n")
					starred = true
				}
			case canonical:
				out.WriteString(hexdumpCanonical(offset, line))
				starred = false
			default:
				out.WriteString(hexdumpWords(offset, line))
				starred = false
			}
			prev = append(prev[:0], line...)
			offset += int64(n)
		}
		if err != nil {
			if err != io.EOF && err != io.ErrUnexpectedEOF {
				return cmdutil.Finish(c, "hexdump", err)
			}
			break
		}
	}
	if offset > skipped || skipped > 0 {
		if canonical {
			fmt.Fprintf(out, "%08x\n", offset)
		} else {
			fmt.Fprintf(out, "%07x\n", offset)
		}
	}
	if err := out.Flush(); err != nil {
		return cmdutil.Finish(c, "hexdump", err)
	}
	if failed > 0 {
		return command.Exit(1)
	}
	return nil
}

// hexdumpCanonical is one line of -C.
func hexdumpCanonical(offset int64, line []byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%08x  ", offset)
	for i := range 16 {
		if i == 8 {
			b.WriteByte(' ')
		}
		if i < len(line) {
			fmt.Fprintf(&b, "%02x ", line[i])
		} else {
			b.WriteString("   ")
		}
	}
	b.WriteString(" |")
	for _, ch := range line {
		if ch < 0x20 || ch > 0x7e {
			ch = '.'
		}
		b.WriteByte(ch)
	}
	b.WriteString("|\n")
	return b.String()
}

// hexdumpWords is one line of the default display: 16-bit words, little
// endian, an odd last byte as a word of its own.
func hexdumpWords(offset int64, line []byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%07x", offset)
	for i := 0; i < 16; i += 2 {
		switch {
		case i+1 < len(line):
			fmt.Fprintf(&b, " %04x", uint16(line[i])|uint16(line[i+1])<<8)
		case i < len(line):
			fmt.Fprintf(&b, " %04x", uint16(line[i]))
		default:
			b.WriteString("     ")
		}
	}
	b.WriteByte('\n')
	return b.String()
}

// textStrings is GNU strings: the runs of at least -n (4) printable
// characters (ASCII and tab) in each file, or stdin, the whole file read
// (-a, binutils' default now); -t o|d|x puts each run's offset before it,
// -f the file's name.
func textStrings(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(cmdutil.Flags{Short: "an:t:fdw", Long: map[string]string{
		"all": "a", "bytes": "n:", "radix": "t:", "print-file-name": "f", "data": "d",
	}}, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "strings", 1, err)
	}
	minLen, radix, withName := 4, byte(0), false
	for _, o := range opts {
		switch o.Key {
		case "n":
			n, ok := cmdutil.ParseCount(o.Val)
			if !ok || n < 1 {
				return c.Errorf(1, "strings", "invalid minimum string length %s", o.Val)
			}
			minLen = int(n)
		case "t":
			if len(o.Val) != 1 || !strings.Contains("odx", o.Val) {
				return c.Errorf(1, "strings", "invalid radix: %s", o.Val)
			}
			radix = o.Val[0]
		case "f":
			withName = true
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := cmdutil.NewOut(c)
	status := 0
	for _, name := range files {
		r, err := cmdutil.Open(c, name)
		if err != nil {
			out.Flush()
			fmt.Fprintf(c.Stderr, "strings: '%s': No such file\n", name)
			status = 1
			continue
		}
		data, err := io.ReadAll(posixfs.ContextReader(ctx, r))
		r.Close()
		if err != nil {
			return cmdutil.Finish(c, "strings", err)
		}
		label := ""
		if withName {
			label = name + ": "
			if name == "-" {
				label = "{standard input}: "
			}
		}
		start := -1
		for i := 0; i <= len(data); i++ {
			if i < len(data) && (data[i] >= 0x20 && data[i] <= 0x7e || data[i] == '\t') {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 && i-start >= minLen {
				out.WriteString(label)
				switch radix {
				case 'o':
					fmt.Fprintf(out, "%7o ", start)
				case 'd':
					fmt.Fprintf(out, "%7d ", start)
				case 'x':
					fmt.Fprintf(out, "%7x ", start)
				}
				out.Write(data[start:i])
				out.WriteString("\n")
			}
			start = -1
		}
	}
	if err := out.Flush(); err != nil {
		return cmdutil.Finish(c, "strings", err)
	}
	if status != 0 {
		return command.Exit(status)
	}
	return nil
}
