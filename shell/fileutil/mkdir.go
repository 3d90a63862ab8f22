package fileutil

import (
	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/shell/quotearg"

	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"time"
)

func init() {
	command.Register(posixfs.Strictly(fsMkdir), "mkdir")
	command.Register(posixfs.Strictly(fsTouch), "touch")
	command.Register(posixfs.Strictly(fsChmod), "chmod")
}

// fsMkdir is mkdir: -p (parents, no error if existing), -v, -m MODE.
func fsMkdir(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "pvm:", Long: map[string]string{
		"parents": "p", "verbose": "v", "mode": "m:",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "mkdir", 1, err)
	}
	var parents, verbose bool
	mode := ""
	for _, o := range opts {
		switch o.Key {
		case "p":
			parents = true
		case "v":
			verbose = true
		case "m":
			mode = o.Val
		}
	}
	if mode != "" {
		if _, ok := posixfs.ApplyMode(mode, 0o777, true); !ok {
			posixfs.Warn(c, "mkdir", "invalid mode %s", quotearg.Quote(mode))
			return command.Exit(1)
		}
	}
	if len(ops) == 0 {
		return cmdutil.Usage(c, "mkdir", 1, cmdutil.Usagef("missing operand"))
	}
	status := 0
	made := func(name, abs string) {
		if mode != "" {
			bits, _ := posixfs.ApplyMode(mode, 0o777&^uint32(posixfs.UmaskOf(c.FS)), true)
			_ = c.FS.Chmod(abs, command.FileMode(bits)|fs.ModeDir)
		}
		if verbose {
			fmt.Fprintf(c.Stdout, "mkdir: created directory %s\n", quotearg.Quote(name))
		}
	}
	for _, name := range ops {
		if err := ctx.Err(); err != nil {
			return err
		}
		abs := c.Abs(name)
		if !parents {
			if err := c.FS.Mkdir(abs, 0o777); err != nil {
				posixfs.Warn(c, "mkdir", "cannot create directory %s: %s", quotearg.Quote(name), posixfs.ErrText(err))
				status = 1
				continue
			}
			made(name, abs)
			continue
		}
		// -p: make each missing component, reporting it with -v.
		var chain []string
		for p := strings.TrimRight(name, "/"); p != "" && p != "." && p != "/"; p = path.Dir(p) {
			chain = append([]string{p}, chain...)
			if path.Dir(p) == p {
				break
			}
		}
		for _, p := range chain {
			pabs := c.Abs(p)
			fi, err := c.FS.Stat(pabs)
			if err == nil {
				if !fi.IsDir() {
					posixfs.Warn(c, "mkdir", "cannot create directory %s: File exists", quotearg.Quote(name))
					status = 1
					break
				}
				continue
			}
			if err := c.FS.Mkdir(pabs, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
				posixfs.Warn(c, "mkdir", "cannot create directory %s: %s", quotearg.Quote(p), posixfs.ErrText(err))
				status = 1
				break
			}
			made(p, pabs)
		}
	}
	return command.Exit(status)
}

// fsTouch is touch: make missing files empty, set times to now or to -d
// DATE, -t STAMP, -r FILE; -c (make none), -a, -m, -h accepted.
func fsTouch(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "acmhfd:t:r:", Long: map[string]string{
		"no-create": "c", "date": "d:", "reference": "r:", "no-dereference": "h", "time": "time:",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "touch", 1, err)
	}
	noCreate := false
	when := time.Now()
	loc := Location(c)
	for _, o := range opts {
		switch o.Key {
		case "c":
			noCreate = true
		case "d":
			t, ok := fsParseDate(o.Val, time.Now(), loc)
			if !ok {
				posixfs.Warn(c, "touch", "invalid date format %s", quotearg.Quote(o.Val))
				return command.Exit(1)
			}
			when = t
		case "t":
			t, ok := fsParseStamp(o.Val, time.Now(), loc)
			if !ok {
				posixfs.Warn(c, "touch", "invalid date format %s", quotearg.Quote(o.Val))
				return command.Exit(1)
			}
			when = t
		case "r":
			fi, err := c.FS.Stat(c.Abs(o.Val))
			if err != nil {
				posixfs.Warn(c, "touch", "failed to get attributes of %s: %s", quotearg.Quote(o.Val), posixfs.ErrText(err))
				return command.Exit(1)
			}
			when = fi.ModTime()
		}
	}
	if len(ops) == 0 {
		return cmdutil.Usage(c, "touch", 1, cmdutil.Usagef("missing file operand"))
	}
	status := 0
	for _, name := range ops {
		if err := ctx.Err(); err != nil {
			return err
		}
		abs := c.Abs(name)
		if _, err := c.FS.Stat(abs); err != nil {
			if noCreate {
				continue
			}
			f, err := c.FS.OpenFile(abs, os.O_WRONLY|os.O_CREATE, 0o666)
			if err != nil {
				posixfs.Warn(c, "touch", "cannot touch %s: %s", quotearg.Quote(name), posixfs.ErrText(err))
				status = 1
				continue
			}
			f.Close()
		}
		if err := c.FS.Chtimes(abs, when, when); err != nil {
			posixfs.Warn(c, "touch", "setting times of %s: %s", quotearg.Quote(name), posixfs.ErrText(err))
			status = 1
		}
	}
	return command.Exit(status)
}

// fsParseStamp parses touch -t's [[CC]YY]MMDDhhmm[.ss].
func fsParseStamp(s string, now time.Time, loc *time.Location) (time.Time, bool) {
	main, secs, _ := strings.Cut(s, ".")
	if !posixfs.AllDigits(main) || (secs != "" && (len(secs) != 2 || !posixfs.AllDigits(secs))) {
		return time.Time{}, false
	}
	year := now.In(loc).Year()
	switch len(main) {
	case 8:
	case 10:
		yy, _ := strconv.Atoi(main[:2])
		if yy < 69 {
			year = 2000 + yy
		} else {
			year = 1900 + yy
		}
		main = main[2:]
	case 12:
		year, _ = strconv.Atoi(main[:4])
		main = main[4:]
	default:
		return time.Time{}, false
	}
	n := func(i int) int { v, _ := strconv.Atoi(main[i : i+2]); return v }
	sec := 0
	if secs != "" {
		sec, _ = strconv.Atoi(secs)
	}
	return time.Date(year, time.Month(n(0)), n(2), n(4), n(6), sec, 0, loc), true
}

// fsChmod is chmod: octal or symbolic modes ("u+x", "go-w", "a=rX",
// "+x"), -R, -v, -c, -f, --reference=FILE.
// changeOpts are the options chmod, chown and chgrp share: -R, -v, -c,
// -f and --reference=FILE.
type changeOpts struct {
	recursive, verbose, changes, quiet bool
	ref                                string
}

func readChangeOpts(opts []cmdutil.Opt) changeOpts {
	var co changeOpts
	for _, o := range opts {
		switch o.Key {
		case "R":
			co.recursive = true
		case "v":
			co.verbose = true
		case "c":
			co.changes = true
		case "f":
			co.quiet = true
		case "reference":
			co.ref = o.Val
		}
	}
	return co
}

// refInfo stats --reference's file for command me; a failure is reported
// as coreutils does and returned as status 1.
func (co changeOpts) refInfo(c *command.Call, me string) (fs.FileInfo, error) {
	fi, err := c.FS.Stat(c.Abs(co.ref))
	if err != nil {
		posixfs.Warn(c, me, "failed to get attributes of %s: %s", quotearg.Quote(co.ref), posixfs.ErrText(err))
		return nil, command.Exit(1)
	}
	return fi, nil
}

func fsChmod(ctx context.Context, c *command.Call, args []string) error {
	// A mode such as "-w" looks like an option: take the first operand
	// that is a mode before parsing.
	var mode string
	var rest []string
	for i, a := range args[1:] {
		if mode == "" && len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "rwxXstugo") == "" {
			mode = a
			rest = append(rest, args[i+2:]...)
			break
		}
		rest = append(rest, a)
	}
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "Rvcf", Long: map[string]string{
		"recursive": "R", "verbose": "v", "changes": "c", "silent": "f", "quiet": "f", "reference": "reference:",
	}}, rest)

	if err != nil {
		return cmdutil.Usage(c, "chmod", 1, err)
	}
	co := readChangeOpts(opts)
	recursive, verbose, changes, quiet := co.recursive, co.verbose, co.changes, co.quiet
	if co.ref != "" {
		fi, err := co.refInfo(c, "chmod")
		if err != nil {
			return err
		}
		mode = strconv.FormatUint(uint64(command.UnixMode(fi.Mode())), 8)
	}
	if mode == "" {
		if len(ops) == 0 {
			return cmdutil.Usage(c, "chmod", 1, cmdutil.Usagef("missing operand"))
		}
		mode, ops = ops[0], ops[1:]
	}
	if _, ok := posixfs.ApplyMode(mode, 0, false); !ok {
		return cmdutil.Usage(c, "chmod", 1, cmdutil.Usagef("invalid mode: %s", quotearg.Quote(mode)))
	}
	if len(ops) == 0 {
		return cmdutil.Usage(c, "chmod", 1, cmdutil.Usagef("missing operand after %s", quotearg.Quote(mode)))
	}
	status := 0
	var apply func(name, abs string, top bool)
	apply = func(name, abs string, top bool) {
		if ctx.Err() != nil {
			return
		}
		fi, err := posixfs.Lstat(c.FS, abs)
		if err == nil && posixfs.IsSymlink(fi) {
			if !top {
				return // links met while recursing are left alone
			}
			fi, err = c.FS.Stat(abs)
		}
		if err != nil {
			if !quiet {
				posixfs.Warn(c, "chmod", "cannot access %s: %s", quotearg.Quote(name), posixfs.ErrText(err))
			}
			status = 1
			return
		}
		old := command.UnixMode(fi.Mode())
		bits, _ := posixfs.ApplyModeMask(mode, old, fi.IsDir(), uint32(posixfs.UmaskOf(c.FS)))
		if bits != old {
			if err := c.FS.Chmod(abs, command.FileMode(bits)|(fi.Mode()&fs.ModeType)); err != nil {
				if !quiet {
					posixfs.Warn(c, "chmod", "changing permissions of %s: %s", quotearg.Quote(name), posixfs.ErrText(err))
				}
				status = 1
				return
			}
		}
		if verbose || (changes && bits != old) {
			if bits != old {
				fmt.Fprintf(c.Stdout, "mode of %s changed from %04o (%s) to %04o (%s)\n", quotearg.Quote(name),
					old, ModeString(command.FileMode(old) | (fi.Mode() & fs.ModeType))[1:],
					bits, ModeString(command.FileMode(bits) | (fi.Mode() & fs.ModeType))[1:])
			} else {
				fmt.Fprintf(c.Stdout, "mode of %s retained as %04o (%s)\n", quotearg.Quote(name), old,
					ModeString(fi.Mode())[1:])
			}
		}
		if recursive && fi.IsDir() {
			list, err := posixfs.ReadDir(c.FS, abs)
			if err != nil {
				posixfs.Warn(c, "chmod", "cannot read directory %s: %s", quotearg.Quote(name), posixfs.ErrText(err))
				status = 1
				return
			}
			for _, e := range list {
				apply(posixfs.Join(name, e.Name()), abs+"/"+e.Name(), false)
			}
		}
	}
	for _, name := range ops {
		apply(name, c.Abs(name), true)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return command.Exit(status)
}
