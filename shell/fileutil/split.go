package fileutil

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/command"
)

// split is GNU split [-l N | -b SIZE | -n N] [-d] [-a N]
// [--additional-suffix=S] [FILE [PREFIX]]: pieces of 1000 lines by
// default, named PREFIX (x) and a suffix aa, ab, ... (00, 01, ... with -d).
func split(ctx context.Context, c *command.Call, args []string) error {
	lines, bytesPer, chunks := int64(1000), int64(0), int64(0)
	numeric, suffixLen, extra := false, 2, ""
	var ops []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		next := func() (string, bool) {
			if strings.Contains(a, "=") {
				_, v, _ := strings.Cut(a, "=")
				return v, true
			}
			if len(a) > 2 && a[0] == '-' && a[1] != '-' {
				return a[2:], true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return "", false
		}
		switch {
		case a == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case a == "-d" || a == "--numeric-suffixes":
			numeric = true
		case strings.HasPrefix(a, "-l") || strings.HasPrefix(a, "--lines"):
			v, _ := next()
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return c.Errorf(1, "split", "invalid number of lines: %s", quote(v))
			}
			lines, bytesPer, chunks = n, 0, 0
		case strings.HasPrefix(a, "-b") || strings.HasPrefix(a, "--bytes"):
			v, _ := next()
			n, ok := parseSize(v)
			if !ok || n <= 0 {
				return c.Errorf(1, "split", "invalid number of bytes: %s", quote(v))
			}
			bytesPer, chunks = n, 0
		case strings.HasPrefix(a, "-n") || strings.HasPrefix(a, "--number"):
			v, _ := next()
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return c.Errorf(1, "split", "invalid number of chunks: %s (this split takes -n N)", quote(v))
			}
			chunks, bytesPer = n, 0
		case strings.HasPrefix(a, "-a") || strings.HasPrefix(a, "--suffix-length"):
			v, _ := next()
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				return c.Errorf(1, "split", "invalid suffix length: %s", quote(v))
			}
			suffixLen = n
		case strings.HasPrefix(a, "--additional-suffix"):
			extra, _ = next()
		case len(a) > 1 && a[0] == '-':
			fmt.Fprintf(c.Stderr, "split: invalid option -- '%s'\nTry 'split --help' for more information.\n", strings.TrimLeft(a, "-"))
			return command.Exit(1)
		default:
			ops = append(ops, a)
		}
	}
	in, prefix := "-", "x"
	if len(ops) > 0 {
		in = ops[0]
	}
	if len(ops) > 1 {
		prefix = ops[1]
	}
	if len(ops) > 2 {
		fmt.Fprintf(c.Stderr, "split: extra operand %s\nTry 'split --help' for more information.\n", quote(ops[2]))
		return command.Exit(1)
	}
	var data []byte
	var err error
	if in == "-" {
		data, err = command.ReadAll(ctx, c.Stdin)
	} else {
		data, err = readAll(c, c.Abs(in))
	}
	if err != nil {
		return c.Errorf(1, "split", "cannot open %s for reading: %s", quote(in), errText(err))
	}
	var pieces [][]byte
	switch {
	case chunks > 0:
		size := int64(len(data)) / chunks
		for k := int64(0); k < chunks; k++ {
			start, end := k*size, (k+1)*size
			if k == chunks-1 {
				end = int64(len(data))
			}
			pieces = append(pieces, data[start:end])
		}
	case bytesPer > 0:
		for len(data) > 0 {
			n := min(int64(len(data)), bytesPer)
			pieces = append(pieces, data[:n])
			data = data[n:]
		}
	default:
		for len(data) > 0 {
			end, count := 0, int64(0)
			for end < len(data) && count < lines {
				j := strings.IndexByte(string(data[end:]), '\n')
				if j < 0 {
					end = len(data)
					break
				}
				end += j + 1
				count++
			}
			pieces = append(pieces, data[:end])
			data = data[end:]
		}
	}
	for k, p := range pieces {
		name, ok := suffix(k, suffixLen, numeric)
		if !ok {
			return c.Errorf(1, "split", "output file suffixes exhausted")
		}
		f, err := c.FS.OpenFile(c.Abs(prefix+name+extra), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			return c.Errorf(1, "split", "%s: %s", quote(prefix+name+extra), errText(err))
		}
		_, err = f.Write(p)
		f.Close()
		if err != nil {
			return c.Errorf(1, "split", "%s: %s", quote(prefix+name+extra), errText(err))
		}
	}
	return nil
}

// suffix is the k-th suffix of length n: aa, ab, ... or 00, 01, ...
func suffix(k, n int, numeric bool) (string, bool) {
	base, digits := 26, "abcdefghijklmnopqrstuvwxyz"
	if numeric {
		base, digits = 10, "0123456789"
	}
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		b[i] = digits[k%base]
		k /= base
	}
	return string(b), k == 0
}

// parseSize reads a size: a number with an optional K, M, G (1024s), KB,
// MB, GB (1000s) or b (512s).
func parseSize(s string) (int64, bool) {
	mult := int64(1)
	for _, u := range []struct {
		suf string
		m   int64
	}{{"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000}, {"K", 1 << 10}, {"k", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"b", 512}} {
		if strings.HasSuffix(s, u.suf) {
			s, mult = strings.TrimSuffix(s, u.suf), u.m
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n * mult, err == nil
}
