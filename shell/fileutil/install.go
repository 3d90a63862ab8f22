package fileutil

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/command"
)

// install is GNU install: SOURCE DEST, SOURCE... DIRECTORY, -t DIRECTORY
// SOURCE..., or -d DIRECTORY...; with -m MODE (octal), -D (make DEST's
// parents), -v, -p (keep the modification time), -C (leave an identical
// DEST alone), -T (DEST is a file). Files and folders get mode 755 unless
// -m says otherwise; parents made on the way get 755. -o and -g are not
// supported: the sandbox has one user.
func install(ctx context.Context, c *command.Call, args []string) error {
	mode := fs.FileMode(0o755)
	var dirs, parents, verbose, keepTime, compare, noTarget bool
	target := ""
	var ops []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		val := func(opt string) (string, bool) {
			if v, ok := strings.CutPrefix(a, opt+"="); ok && strings.HasPrefix(opt, "--") {
				return v, true
			}
			if a == opt && i+1 < len(args) {
				i++
				return args[i], true
			}
			if !strings.HasPrefix(opt, "--") && len(a) > 2 && strings.HasPrefix(a, opt) {
				return a[2:], true
			}
			return "", false
		}
		switch {
		case a == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case a == "-d" || a == "--directory":
			dirs = true
		case a == "-D":
			parents = true
		case a == "-v" || a == "--verbose":
			verbose = true
		case a == "-p" || a == "--preserve-timestamps":
			keepTime = true
		case a == "-C" || a == "--compare":
			compare = true
		case a == "-T" || a == "--no-target-directory":
			noTarget = true
		case a == "-s" || a == "--strip" || a == "-c":
		case strings.HasPrefix(a, "-m") || strings.HasPrefix(a, "--mode"):
			v, ok := val("-m")
			if !ok {
				v, ok = val("--mode")
			}
			n, err := strconv.ParseUint(v, 8, 32)
			if !ok || err != nil || n > 0o7777 {
				return c.Errorf(1, "install", "invalid mode %s (this install takes octal modes)", quote(v))
			}
			mode = command.FileMode(uint32(n))
		case strings.HasPrefix(a, "-t") || strings.HasPrefix(a, "--target-directory"):
			v, ok := val("-t")
			if !ok {
				v, ok = val("--target-directory")
			}
			if !ok {
				return usage(c, "option requires an argument -- 't'")
			}
			target = v
		case strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "-g") || strings.HasPrefix(a, "--owner") || strings.HasPrefix(a, "--group"):
			return c.Errorf(1, "install", "%s: changing owners is not supported (the sandbox has one user)", a)
		case len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "dDvpCTsc") == "":
			for _, f := range a[1:] {
				switch f {
				case 'd':
					dirs = true
				case 'D':
					parents = true
				case 'v':
					verbose = true
				case 'p':
					keepTime = true
				case 'C':
					compare = true
				case 'T':
					noTarget = true
				}
			}
		case len(a) > 1 && a[0] == '-':
			return usage(c, "unrecognized option "+quote(a))
		default:
			ops = append(ops, a)
		}
	}
	status := 0
	mkdirs := func(dir string, last fs.FileMode) {
		abs := c.Abs(dir)
		var missing []string
		for p := abs; p != "/"; p = path.Dir(p) {
			if _, err := c.FS.Stat(p); err == nil {
				break
			}
			missing = append([]string{p}, missing...)
		}
		for i, p := range missing {
			if err := c.FS.Mkdir(p, 0o755); err != nil {
				fmt.Fprintf(c.Stderr, "install: cannot create directory %s: %s\n", quote(dir), errText(err))
				status = 1
				return
			}
			_ = c.FS.Chmod(p, 0o755)
			if verbose {
				fmt.Fprintf(c.Stdout, "install: creating directory %s\n", quote(p))
			}
			if i == len(missing)-1 && last != 0 {
				_ = c.FS.Chmod(p, last)
			}
		}
		if len(missing) == 0 && last != 0 {
			if fi, err := c.FS.Stat(abs); err != nil || !fi.IsDir() {
				fmt.Fprintf(c.Stderr, "install: cannot create directory %s: File exists\n", quote(dir))
				status = 1
				return
			}
			_ = c.FS.Chmod(abs, last)
		}
	}
	if dirs {
		if len(ops) == 0 {
			return usage(c, "missing file operand")
		}
		for _, d := range ops {
			mkdirs(d, mode)
		}
		return command.Exit(status)
	}
	var srcs []string
	dest := ""
	switch {
	case target != "":
		srcs = ops
		if parents {
			mkdirs(target, 0)
		}
	case len(ops) < 2:
		if len(ops) == 0 {
			return usage(c, "missing file operand")
		}
		return usage(c, "missing destination file operand after "+quote(ops[0]))
	default:
		srcs, dest = ops[:len(ops)-1], ops[len(ops)-1]
		if fi, err := c.FS.Stat(c.Abs(dest)); err == nil && fi.IsDir() && !noTarget {
			target = dest
		} else if len(srcs) > 1 {
			return c.Errorf(1, "install", "target %s is not a directory", quote(dest))
		} else if parents {
			mkdirs(path.Dir(dest), 0)
		}
	}
	for _, src := range srcs {
		to := dest
		if target != "" {
			to = path.Join(target, path.Base(src))
		}
		if err := installFile(c, src, to, mode, keepTime, compare); err != nil {
			fmt.Fprintln(c.Stderr, "install: "+err.Error())
			status = 1
			continue
		}
		if verbose {
			fmt.Fprintf(c.Stdout, "%s -> %s\n", quote(src), quote(to))
		}
	}
	return command.Exit(status)
}

// installFile copies src to dst (a new file: an old one is removed first)
// with mode.
func installFile(c *command.Call, src, dst string, mode fs.FileMode, keepTime, compare bool) error {
	sAbs, dAbs := c.Abs(src), c.Abs(dst)
	fi, err := c.FS.Stat(sAbs)
	if err != nil {
		return fmt.Errorf("cannot stat %s: %s", quote(src), errText(err))
	}
	if fi.IsDir() {
		return fmt.Errorf("omitting directory %s", quote(src))
	}
	data, err := readAll(c, sAbs)
	if err != nil {
		return fmt.Errorf("cannot open %s for reading: %s", quote(src), errText(err))
	}
	if compare {
		if old, err := readAll(c, dAbs); err == nil && string(old) == string(data) {
			if ofi, err := c.FS.Stat(dAbs); err == nil && ofi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) == mode {
				return nil
			}
		}
	}
	if dfi, err := c.FS.Stat(dAbs); err == nil && dfi.IsDir() {
		return fmt.Errorf("cannot overwrite directory %s with non-directory", quote(dst))
	}
	_ = c.FS.Remove(dAbs)
	f, err := c.FS.OpenFile(dAbs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("cannot create regular file %s: %s", quote(dst), errText(err))
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("error writing %s: %s", quote(dst), errText(err))
	}
	if err := c.FS.Chmod(dAbs, mode); err != nil {
		return fmt.Errorf("cannot change permissions of %s: %s", quote(dst), errText(err))
	}
	if keepTime {
		_ = c.FS.Chtimes(dAbs, fi.ModTime(), fi.ModTime())
	}
	return nil
}

func readAll(c *command.Call, abs string) ([]byte, error) {
	f, err := c.FS.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

func usage(c *command.Call, msg string) error {
	fmt.Fprintf(c.Stderr, "install: %s\nTry 'install --help' for more information.\n", msg)
	return command.Exit(1)
}

// quote is a name as GNU tools quote it in messages.
func quote(s string) string {
	if !strings.ContainsAny(s, " '\"\\$`!*?[]{}()<>|&;#~\t\n") {
		return "'" + s + "'"
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// errText is an error's text as GNU tools print it: the errno's
// description ("No such file or directory").
func errText(err error) string {
	var pe *fs.PathError
	if e, ok := err.(*fs.PathError); ok {
		pe = e
		err = pe.Err
	}
	s := err.Error()
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
