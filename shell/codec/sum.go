package codec

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

// sumAlgo is one of the *sum commands' digests.
type sumAlgo struct {
	cmd, tag string
	new      func() hash.Hash
	hexLen   int
}

func init() {
	for _, a := range []sumAlgo{
		{"md5sum", "MD5", md5.New, 32},
		{"sha1sum", "SHA1", sha1.New, 40},
		{"sha224sum", "SHA224", sha256.New224, 56},
		{"sha256sum", "SHA256", sha256.New, 64},
		{"sha384sum", "SHA384", sha512.New384, 96},
		{"sha512sum", "SHA512", sha512.New, 128},
	} {
		command.Register(func(ctx context.Context, c *command.Call, args []string) error {
			return textSum(ctx, c, args, a)
		}, a.cmd)
	}
}

var sumFlags = cmdutil.Flags{
	Short: "bctwz",
	Long: map[string]string{
		"binary": "b", "check": "c", "text": "t", "warn": "w", "zero": "z", "tag": "tag",
		"quiet": "quiet", "status": "status", "strict": "strict", "ignore-missing": "ignore-missing",
	},
}

// textSum is md5sum, sha1sum, sha224sum, sha256sum, sha384sum and
// sha512sum: print or check message digests.
//
// Supports FILES (standard input when none or "-"), "HASH  NAME" output,
// -b ("HASH *NAME"), -t, --tag (BSD style), -z, and -c/--check with
// --quiet, --status, --strict, -w/--warn and --ignore-missing, with GNU's
// messages and warnings.
func textSum(ctx context.Context, c *command.Call, args []string, algo sumAlgo) error {
	name := algo.cmd
	opts, files, err := cmdutil.Parse(sumFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, name, 1, err)
	}
	var binary, check, tag, zero bool
	s := &sumCheck{algo: algo, c: c}
	for _, o := range opts {
		switch o.Key {
		case "b":
			binary = true
		case "t":
			binary = false
		case "c":
			check = true
		case "tag":
			tag = true
		case "z":
			zero = true
		case "quiet":
			s.quiet = true
		case "status":
			s.status = true
		case "strict":
			s.strict = true
		case "w":
			s.warn = true
		case "ignore-missing":
			s.ignoreMissing = true
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if check {
		return s.run(ctx, files)
	}
	out := cmdutil.NewOut(c)
	status := 0
	for _, f := range files {
		sum, err := sumFile(ctx, c, f, algo)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			out.Flush()
			fmt.Fprintf(c.Stderr, "%s: %s: %s\n", name, f, cmdutil.ErrText(err))
			status = 1
			continue
		}
		shown, escaped := f, false
		if !zero && strings.ContainsAny(f, "\\\n\r") {
			shown = strings.NewReplacer("\\", "\\\\", "\n", "\\n", "\r", "\\r").Replace(f)
			escaped = true
		}
		if escaped {
			out.WriteByte('\\')
		}
		if tag {
			fmt.Fprintf(out, "%s (%s) = %s", algo.tag, shown, sum)
		} else {
			mark := " "
			if binary {
				mark = "*"
			}
			fmt.Fprintf(out, "%s %s%s", sum, mark, shown)
		}
		if zero {
			out.WriteByte(0)
		} else {
			out.WriteByte('\n')
		}
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, name, err)
	}
	return command.Exit(status)
}

// sumFile hashes one file operand.
func sumFile(ctx context.Context, c *command.Call, name string, algo sumAlgo) (string, error) {
	r, err := cmdutil.Open(c, name)
	if err != nil {
		return "", err
	}
	defer r.Close()
	h := algo.new()
	if err := cmdutil.Copy(ctx, h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sumCheck is the -c mode.
type sumCheck struct {
	algo                                       sumAlgo
	c                                          *command.Call
	quiet, status, strict, warn, ignoreMissing bool
}

func (s *sumCheck) run(ctx context.Context, files []string) error {
	name := s.algo.cmd
	out := cmdutil.NewOut(s.c)
	failed := false
	for _, list := range files {
		r, err := cmdutil.Open(s.c, list)
		if err != nil {
			out.Flush()
			fmt.Fprintf(s.c.Stderr, "%s: %s: %s\n", name, list, cmdutil.ErrText(err))
			failed = true
			continue
		}
		var bad, mismatched, unreadable, good int
		lineNo := 0
		err = cmdutil.ReadLines(ctx, r, '\n', func(line []byte, _ bool) error {
			lineNo++
			text := strings.TrimSuffix(string(line), "\r")
			if strings.HasPrefix(text, "#") {
				return nil
			}
			want, file, ok := s.parse(text)
			if !ok {
				bad++
				if s.warn {
					out.Flush()
					fmt.Fprintf(s.c.Stderr, "%s: %s: %d: improperly formatted %s checksum line\n", name, list, lineNo, s.algo.tag)
				}
				return nil
			}
			got, err := sumFile(ctx, s.c, file, s.algo)
			if err != nil {
				if ctx.Err() != nil {
					return err
				}
				if s.ignoreMissing && cmdutil.ErrText(err) == "No such file or directory" {
					return nil
				}
				good++
				unreadable++
				out.Flush()
				fmt.Fprintf(s.c.Stderr, "%s: %s: %s\n", name, file, cmdutil.ErrText(err))
				if !s.status {
					fmt.Fprintf(out, "%s: FAILED open or read\n", file)
				}
				return nil
			}
			good++
			if !strings.EqualFold(got, want) {
				mismatched++
				if !s.status {
					fmt.Fprintf(out, "%s: FAILED\n", file)
				}
				return nil
			}
			if !s.status && !s.quiet {
				fmt.Fprintf(out, "%s: OK\n", file)
			}
			return nil
		})
		r.Close()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return cmdutil.Finish(s.c, name, err)
		}
		out.Flush()
		if good == 0 {
			shown := list
			if list == "-" {
				shown = "standard input"
			}
			fmt.Fprintf(s.c.Stderr, "%s: %s: no properly formatted checksum lines found\n", name, shown)
			failed = true
			continue
		}
		if !s.status {
			if bad > 0 {
				fmt.Fprintf(s.c.Stderr, "%s: WARNING: %d %s improperly formatted\n", name, bad, sumPlural(bad, "line is", "lines are"))
			}
			if unreadable > 0 {
				fmt.Fprintf(s.c.Stderr, "%s: WARNING: %d listed %s could not be read\n", name, unreadable, sumPlural(unreadable, "file", "files"))
			}
			if mismatched > 0 {
				fmt.Fprintf(s.c.Stderr, "%s: WARNING: %d computed %s did NOT match\n", name, mismatched, sumPlural(mismatched, "checksum", "checksums"))
			}
		}
		if mismatched > 0 || unreadable > 0 || (s.strict && bad > 0) {
			failed = true
		}
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(s.c, name, err)
	}
	if failed {
		return command.Exit(1)
	}
	return nil
}

func sumPlural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// parse reads a checksum line: "HASH  NAME", "HASH *NAME" or the BSD
// "ALGO (NAME) = HASH", with a leading backslash for an escaped name.
func (s *sumCheck) parse(line string) (want, file string, ok bool) {
	escaped := strings.HasPrefix(line, "\\")
	if escaped {
		line = line[1:]
	}
	unescape := func(n string) string {
		if !escaped {
			return n
		}
		return strings.NewReplacer("\\\\", "\\", "\\n", "\n", "\\r", "\r").Replace(n)
	}
	if rest, found := strings.CutPrefix(line, s.algo.tag+" ("); found {
		i := strings.LastIndex(rest, ") = ")
		if i < 0 {
			return "", "", false
		}
		want = rest[i+4:]
		if len(want) != s.algo.hexLen || !sumIsHex(want) {
			return "", "", false
		}
		return want, unescape(rest[:i]), true
	}
	line = strings.TrimLeft(line, " \t")
	if len(line) < s.algo.hexLen+2 {
		return "", "", false
	}
	want = line[:s.algo.hexLen]
	if !sumIsHex(want) || line[s.algo.hexLen] != ' ' {
		return "", "", false
	}
	mark := line[s.algo.hexLen+1]
	if mark != ' ' && mark != '*' {
		return "", "", false
	}
	file = line[s.algo.hexLen+2:]
	if file == "" {
		return "", "", false
	}
	return want, unescape(file), true
}

func sumIsHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
