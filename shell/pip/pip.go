// Package pip is the shell's pip: it installs pure-Python wheels
// (py3-none-any, py2.py3-none-any) and their dependencies, with PEP 508
// environment markers evaluated for the sandbox's CPython (WithPython; 3.12
// on WASI by default),
// from a PEP 503/691 simple index — PIP_INDEX_URL or --index-url, by
// default PyPI's — reached through the sandbox's network policy, each file
// checked against the index's sha256. It is the project's own installer,
// not the real pip (the sandbox's CPython can run neither pip's build
// machinery nor threads): install, uninstall, list, show and freeze print
// what pip prints. Packages go to $HOME/UserSite, in the sandbox's files, so
// they are kept with its snapshots. A project with no pure-Python wheel
// fails with a message naming the adapters whose real pip can install it.
package pip

import (
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/agentenkit/agentenkit/shell/command"
)

// UserSite is where pip installs for CPython version py ("3.11.2"), under
// $HOME: the user site folder, as `pip install --user` uses on Linux
// (.local/lib/python3.X/site-packages). The wasm adapter's CPython has it on
// sys.path (its sitecustomize adds it, even when made after the start), and
// it is in the sandbox's work folder, so it is kept with the files.
func UserSite(py string) string {
	return ".local/lib/python" + minorOf(py) + "/site-packages"
}

// DefaultPython is the CPython version pip installs for when the context
// names none (WithPython): the wasm adapter's default image's.
const DefaultPython = "3.12.0"

// minorOf is "3.12" of "3.12.0" (and of "3.12"); DefaultPython's when py
// is empty.
func minorOf(py string) string {
	if py == "" {
		py = DefaultPython
	}
	major, rest, _ := strings.Cut(py, ".")
	minor, _, _ := strings.Cut(rest, ".")
	return major + "." + minor
}

type pythonKey struct{}

// WithPython returns ctx saying that the sandbox's CPython is version py
// ("3.11.2"): Main installs into its UserSite and evaluates markers and
// Requires-Python for it. Empty py means DefaultPython.
func WithPython(ctx context.Context, py string) context.Context {
	return context.WithValue(ctx, pythonKey{}, py)
}

// call is a command call with the CPython version it installs for.
type call struct {
	*command.Call
	py  string            // "3.12.0"
	env map[string]string // markerEnv(py)
}

// site is the folder pip installs into for c: the virtual environment's
// site-packages when pip (or the python3 of `python3 -m pip`) was run
// through one (Venv), else UserSite under $HOME.
func site(c *call) string {
	if venv := Venv(c.FS, c.Path); venv != "" {
		return VenvSite(venv, c.py)
	}
	home, ok := c.Env("HOME")
	if !ok || home == "" {
		home = "/root"
	}
	return path.Join(home, UserSite(c.py))
}

// Version is the pip this one answers as.
const Version = "24.0"

// pip3.X is the wasm busybox image's to answer (images/busybox), which
// knows the sandbox's CPython version.
func init() {
	command.Register(Main, "pip", "pip3")
}

// Main is `pip ARGS` (and `python3 -m pip ARGS`, which the shell sends here).
func Main(ctx context.Context, cc *command.Call, args []string) error {
	py, _ := ctx.Value(pythonKey{}).(string)
	if py == "" {
		py = DefaultPython
	}
	c := &call{Call: cc, py: py, env: markerEnv(py)}
	rest := args[1:]
	var sub string
	var opts []string
	for i, a := range rest {
		if !strings.HasPrefix(a, "-") {
			sub, opts = a, append(rest[:i:i], rest[i+1:]...)
			break
		}
		switch a {
		case "--version", "-V":
			fmt.Fprintf(c.Stdout, "pip %s from %s/pip (python %s)\n", Version, site(c), minorOf(c.py))
			return nil
		case "--help", "-h":
			fmt.Fprint(c.Stdout, usage)
			return nil
		}
	}
	switch sub {
	case "install":
		return install(ctx, c, opts)
	case "uninstall":
		return uninstall(c, opts)
	case "list":
		return list(c, opts)
	case "freeze":
		return freeze(c)
	case "show":
		return show(c, opts)
	case "":
		fmt.Fprint(c.Stdout, usage)
		return nil
	}
	fmt.Fprintf(c.Stderr, "ERROR: unknown command \"%s\"\n", sub)
	return command.Exit(1)
}

const usage = `
Usage:   
  pip <command> [options]

Commands:
  install                     Install packages.
  uninstall                   Uninstall packages.
  freeze                      Output installed packages in requirements format.
  list                        List installed packages.
  show                        Show information about installed packages.

This sandbox's pip installs pure-Python wheels only (see the docker and e2b
adapters for the real pip).
`

// dist is an installed distribution.
type dist struct {
	name, version string
	dir           string // its .dist-info folder
	meta          map[string][]string
}

// installed reads the site-packages' .dist-info folders, by normalized name.
func installed(c *call) map[string]*dist {
	out := map[string]*dist{}
	f, err := c.FS.Open(site(c))
	if err != nil {
		return out
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	for _, n := range names {
		if !strings.HasSuffix(n, ".dist-info") {
			continue
		}
		dir := path.Join(site(c), n)
		b, err := readFile(c, path.Join(dir, "METADATA"))
		if err != nil {
			continue
		}
		meta := parseMetadata(b)
		d := &dist{name: first(meta, "Name"), version: first(meta, "Version"), dir: dir, meta: meta}
		if d.name != "" {
			out[normalize(d.name)] = d
		}
	}
	return out
}

func first(meta map[string][]string, k string) string {
	if v := meta[k]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// parseMetadata reads the header fields of a METADATA file.
func parseMetadata(b []byte) map[string][]string {
	meta := map[string][]string{}
	var last string
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" {
			break
		}
		if (line[0] == ' ' || line[0] == '\t') && last != "" {
			vs := meta[last]
			vs[len(vs)-1] += "\n" + strings.TrimSpace(line)
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		last = k
		meta[k] = append(meta[k], strings.TrimSpace(v))
	}
	return meta
}

func readFile(c *call, p string) ([]byte, error) {
	f, err := c.FS.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

func writeFile(c *call, p string, data []byte, mode os.FileMode) error {
	if err := c.FS.MkdirAll(path.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := c.FS.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func list(c *call, opts []string) error {
	ds := sorted(installed(c))
	format := ""
	for i, o := range opts {
		switch {
		case o == "--format" && i+1 < len(opts):
			format = opts[i+1]
		case strings.HasPrefix(o, "--format="):
			format = strings.TrimPrefix(o, "--format=")
		}
	}
	switch format {
	case "freeze":
		return freeze(c)
	case "json":
		fmt.Fprint(c.Stdout, "[")
		for i, d := range ds {
			if i > 0 {
				fmt.Fprint(c.Stdout, ", ")
			}
			fmt.Fprintf(c.Stdout, "{\"name\": %q, \"version\": %q}", d.name, d.version)
		}
		fmt.Fprintln(c.Stdout, "]")
		return nil
	}
	w1, w2 := len("Package"), len("Version")
	for _, d := range ds {
		w1, w2 = max(w1, len(d.name)), max(w2, len(d.version))
	}
	fmt.Fprintf(c.Stdout, "%-*s %s\n%s %s\n", w1, "Package", "Version", strings.Repeat("-", w1), strings.Repeat("-", w2))
	for _, d := range ds {
		fmt.Fprintf(c.Stdout, "%-*s %s\n", w1, d.name, d.version)
	}
	return nil
}

func sorted(m map[string]*dist) []*dist {
	ds := make([]*dist, 0, len(m))
	for _, d := range m {
		ds = append(ds, d)
	}
	sort.Slice(ds, func(i, j int) bool { return strings.ToLower(ds[i].name) < strings.ToLower(ds[j].name) })
	return ds
}

func freeze(c *call) error {
	for _, d := range sorted(installed(c)) {
		fmt.Fprintf(c.Stdout, "%s==%s\n", d.name, d.version)
	}
	return nil
}

func show(c *call, opts []string) error {
	all := installed(c)
	var missing []string
	n := 0
	for _, name := range opts {
		if strings.HasPrefix(name, "-") {
			continue
		}
		d := all[normalize(name)]
		if d == nil {
			missing = append(missing, name)
			continue
		}
		if n > 0 {
			fmt.Fprintln(c.Stdout, "---")
		}
		n++
		var requires, requiredBy []string
		for _, r := range d.meta["Requires-Dist"] {
			if req, err := parseRequirement(r); err == nil {
				if ok, _ := evalMarker(c.env, req.marker, ""); ok {
					requires = append(requires, req.name)
				}
			}
		}
		for _, o := range sorted(all) {
			for _, r := range o.meta["Requires-Dist"] {
				if req, err := parseRequirement(r); err == nil && normalize(req.name) == normalize(d.name) {
					requiredBy = append(requiredBy, o.name)
					break
				}
			}
		}
		sort.Strings(requires)
		home := first(d.meta, "Home-page")
		fmt.Fprintf(c.Stdout, "Name: %s\nVersion: %s\nSummary: %s\nHome-page: %s\nAuthor: %s\nAuthor-email: %s\nLicense: %s\nLocation: %s\nRequires: %s\nRequired-by: %s\n",
			d.name, d.version, first(d.meta, "Summary"), home, first(d.meta, "Author"), first(d.meta, "Author-email"),
			first(d.meta, "License"), site(c), strings.Join(requires, ", "), strings.Join(requiredBy, ", "))
	}
	if len(missing) > 0 {
		fmt.Fprintf(c.Stderr, "WARNING: Package(s) not found: %s\n", strings.Join(missing, ", "))
		return command.Exit(1)
	}
	return nil
}

func uninstall(c *call, opts []string) error {
	yes := false
	var names []string
	for i := 0; i < len(opts); i++ {
		switch o := opts[i]; {
		case o == "-y" || o == "--yes":
			yes = true
		case o == "-r" || o == "--requirement":
			if i+1 < len(opts) {
				i++
				reqs, err := readRequirements(c, opts[i])
				if err != nil {
					return err
				}
				for _, r := range reqs {
					names = append(names, r.name)
				}
			}
		case strings.HasPrefix(o, "-"):
		default:
			names = append(names, o)
		}
	}
	if len(names) == 0 {
		fmt.Fprintln(c.Stderr, "ERROR: You must give at least one requirement to uninstall (see \"pip help uninstall\")")
		return command.Exit(1)
	}
	all := installed(c)
	for _, name := range names {
		d := all[normalize(name)]
		if d == nil {
			fmt.Fprintf(c.Stderr, "WARNING: Skipping %s as it is not installed.\n", name)
			continue
		}
		fmt.Fprintf(c.Stdout, "Found existing installation: %s %s\n", d.name, d.version)
		fmt.Fprintf(c.Stdout, "Uninstalling %s-%s:\n", d.name, d.version)
		if !yes {
			fmt.Fprintf(c.Stdout, "  Would remove:\n    %s/*\nProceed (Y/n)? ", site(c))
			ans := make([]byte, 16)
			n, _ := c.Stdin.Read(ans)
			if a := strings.TrimSpace(string(ans[:n])); a != "" && a[0] != 'y' && a[0] != 'Y' {
				continue
			}
		}
		removeDist(c, d)
		fmt.Fprintf(c.Stdout, "  Successfully uninstalled %s-%s\n", d.name, d.version)
	}
	return nil
}

// removeDist deletes the files its RECORD lists, then empty folders.
func removeDist(c *call, d *dist) {
	rec, _ := readFile(c, path.Join(d.dir, "RECORD"))
	dirs := map[string]bool{}
	for _, line := range strings.Split(string(rec), "\n") {
		p, _, _ := strings.Cut(line, ",")
		p = strings.Trim(p, "\"")
		if p == "" {
			continue
		}
		full := path.Clean(path.Join(site(c), p))
		if !strings.HasPrefix(full, site(c)+"/") && !strings.HasPrefix(full, "/usr/local/bin/") {
			continue
		}
		_ = c.FS.Remove(full)
		for dir := path.Dir(full); strings.HasPrefix(dir, site(c)+"/"); dir = path.Dir(dir) {
			dirs[dir] = true
		}
	}
	_ = c.FS.RemoveAll(d.dir)
	var ds []string
	for dir := range dirs {
		ds = append(ds, dir)
	}
	sort.Slice(ds, func(i, j int) bool { return len(ds[i]) > len(ds[j]) })
	for _, dir := range ds {
		if f, err := c.FS.Open(dir); err == nil {
			names, _ := f.Readdirnames(1)
			f.Close()
			if len(names) == 0 {
				_ = c.FS.Remove(dir)
			} else if len(names) == 1 && names[0] == "__pycache__" {
				_ = c.FS.RemoveAll(dir)
			}
		}
	}
}
