package pip

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/agentenkit/agentenkit/shell/command"
	shnet "github.com/agentenkit/agentenkit/shell/net"
)

type installOpts struct {
	reqs    []requirement
	indexes []string
	upgrade bool
	noDeps  bool
	force   bool
	pre     bool
	quiet   bool
}

// readRequirements reads a requirements file (comments, blank lines,
// continuations, -r and index options).
func readRequirements(c *call, name string) ([]requirement, error) {
	o := &installOpts{}
	if err := o.readFile(c, name, 0); err != nil {
		return nil, err
	}
	return o.reqs, nil
}

func (o *installOpts) readFile(c *call, name string, depth int) error {
	b, err := readFile(c, c.Abs(name))
	if err != nil {
		fmt.Fprintf(c.Stderr, "ERROR: Could not open requirements file: [Errno 2] No such file or directory: '%s'\n", name)
		return command.Exit(1)
	}
	text := strings.ReplaceAll(string(b), "\\\n", "")
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "-") {
			f := strings.Fields(strings.Replace(line, "=", " ", 1))
			switch f[0] {
			case "-r", "--requirement":
				if len(f) > 1 && depth < 10 {
					if err := o.readFile(c, path.Join(path.Dir(c.Abs(name)), f[1]), depth+1); err != nil {
						return err
					}
				}
			case "-i", "--index-url":
				if len(f) > 1 {
					o.indexes = append([]string{f[1]}, o.indexes...)
				}
			case "--extra-index-url":
				if len(f) > 1 {
					o.indexes = append(o.indexes, f[1])
				}
			case "--pre":
				o.pre = true
			}
			continue
		}
		r, err := parseRequirement(line)
		if err != nil {
			fmt.Fprintf(c.Stderr, "ERROR: %v\n", err)
			return command.Exit(1)
		}
		o.reqs = append(o.reqs, r)
	}
	return nil
}

func install(ctx context.Context, c *call, args []string) error {
	o := &installOpts{}
	var index string
	var extra []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() string {
			if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") {
				return v
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		name, _, _ := strings.Cut(a, "=")
		switch {
		case a == "-r" || name == "--requirement":
			if err := o.readFile(c, val(), 0); err != nil {
				return err
			}
		case a == "-i" || name == "--index-url":
			index = val()
		case name == "--extra-index-url":
			extra = append(extra, val())
		case a == "-U" || a == "--upgrade":
			o.upgrade = true
		case a == "--no-deps":
			o.noDeps = true
		case a == "--force-reinstall":
			o.force, o.upgrade = true, true
		case a == "--pre":
			o.pre = true
		case a == "-q" || a == "-qq" || a == "--quiet":
			o.quiet = true
		case a == "-e" || name == "--editable" || a == "-t" || name == "--target" || a == "--prefix" || a == "--root" || a == "-c" || name == "--constraint":
			fmt.Fprintf(c.Stderr, "ERROR: %s is not offered by this sandbox's pip (it installs wheels into %s; the docker and e2b adapters run the real pip)\n", name, site(c))
			return command.Exit(2)
		case a == "--progress-bar" || a == "--root-user-action" || a == "--cache-dir" || a == "--timeout" || a == "--retries":
			i++
		case strings.HasPrefix(a, "-"):
			// --no-cache-dir, --user, --break-system-packages, ...: nothing to do
		default:
			r, err := parseRequirement(a)
			if err != nil {
				fmt.Fprintf(c.Stderr, "ERROR: %v\n", err)
				return command.Exit(1)
			}
			o.reqs = append(o.reqs, r)
		}
	}
	if len(o.reqs) == 0 {
		fmt.Fprintln(c.Stderr, "ERROR: You must give at least one requirement to install (see \"pip help install\")")
		return command.Exit(1)
	}
	if index == "" {
		if v, ok := c.Env("PIP_INDEX_URL"); ok && v != "" {
			index = v
		} else {
			index = defaultIndex
		}
	}
	if v, ok := c.Env("PIP_EXTRA_INDEX_URL"); ok {
		extra = append(extra, strings.Fields(v)...)
	}
	o.indexes = append(append([]string{index}, o.indexes...), extra...)
	return o.run(ctx, c)
}

// pick is a distribution chosen to install.
type pick struct {
	name    string // normalized
	file    file
	data    []byte
	meta    map[string][]string
	deps    []string // normalized names, to order the install
	top     bool
	replace *dist
}

func (o *installOpts) printf(c *call, format string, a ...any) {
	if !o.quiet {
		fmt.Fprintf(c.Stdout, format, a...)
	}
}

func (o *installOpts) run(ctx context.Context, c *call) error {
	have := installed(c)
	picks := map[string]*pick{}
	var order []string
	type item struct {
		req    requirement
		parent string
		extras []string
	}
	queue := make([]item, 0, len(o.reqs))
	for _, r := range o.reqs {
		if ok, err := evalMarker(c.env, r.marker, ""); err != nil || !ok {
			if err == nil {
				o.printf(c, "Ignoring %s: markers '%s' don't match your environment\n", r.name, r.marker)
			}
			continue
		}
		queue = append(queue, item{req: r, extras: r.extras})
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		key := normalize(it.req.name)
		from := ""
		if it.parent != "" {
			from = " (from " + it.parent + ")"
		}
		if picks[key] != nil {
			continue // already chosen
		}
		top := it.parent == ""
		if d := have[key]; d != nil && !(top && o.upgrade) {
			if v, ok := parseVersion(d.version); ok && matches(it.req.specs, v) {
				o.printf(c, "Requirement already satisfied: %s in %s (%s)%s\n", it.req.String(), site(c), d.version, strings.Replace(from, " (from", " (from", 1))
				continue
			}
		}
		o.printf(c, "Collecting %s%s\n", it.req.String(), from)
		f, err := o.choose(ctx, c, it.req)
		if err != nil {
			return err
		}
		if d := have[key]; d != nil && !o.force {
			if v, ok := parseVersion(d.version); ok && v.compare(f.version) == 0 {
				o.printf(c, "Requirement already satisfied: %s in %s (%s)\n", it.req.String(), site(c), d.version)
				continue
			}
		}
		data, err := o.download(ctx, c, f)
		if err != nil {
			return err
		}
		meta, err := wheelMetadata(data)
		if err != nil {
			fmt.Fprintf(c.Stderr, "ERROR: %s is not a valid wheel: %v\n", f.name, err)
			return command.Exit(1)
		}
		p := &pick{name: key, file: f, data: data, meta: meta, top: top, replace: have[key]}
		picks[key] = p
		order = append(order, key)
		if o.noDeps {
			continue
		}
		for _, rd := range meta["Requires-Dist"] {
			dep, err := parseRequirement(rd)
			if err != nil {
				continue
			}
			ok := false
			if len(it.extras) == 0 {
				ok, _ = evalMarker(c.env, dep.marker, "")
			}
			for _, e := range it.extras {
				if m, _ := evalMarker(c.env, dep.marker, e); m {
					ok = true
				}
			}
			if !ok {
				continue
			}
			p.deps = append(p.deps, normalize(dep.name))
			queue = append(queue, item{req: dep, parent: first(meta, "Name"), extras: dep.extras})
		}
	}
	if len(order) == 0 {
		return nil
	}
	// Dependencies first.
	var seq []*pick
	seen := map[string]bool{}
	var visit func(k string)
	visit = func(k string) {
		p := picks[k]
		if p == nil || seen[k] {
			return
		}
		seen[k] = true
		for _, d := range p.deps {
			visit(d)
		}
		seq = append(seq, p)
	}
	for _, k := range order {
		visit(k)
	}
	names := make([]string, len(seq))
	for i, p := range seq {
		names[i] = first(p.meta, "Name")
	}
	o.printf(c, "Installing collected packages: %s\n", strings.Join(names, ", "))
	var done []string
	for _, p := range seq {
		if p.replace != nil {
			o.printf(c, "  Attempting uninstall: %s\n    Found existing installation: %s %s\n    Uninstalling %s-%s:\n",
				p.replace.name, p.replace.name, p.replace.version, p.replace.name, p.replace.version)
			removeDist(c, p.replace)
			o.printf(c, "      Successfully uninstalled %s-%s\n", p.replace.name, p.replace.version)
		}
		if err := unpack(c, p); err != nil {
			fmt.Fprintf(c.Stderr, "ERROR: Could not install packages due to an OSError: %v\n", err)
			return command.Exit(1)
		}
		done = append(done, first(p.meta, "Name")+"-"+first(p.meta, "Version"))
	}
	sort.Slice(done, func(i, j int) bool { return strings.ToLower(done[i]) < strings.ToLower(done[j]) })
	o.printf(c, "Successfully installed %s\n", strings.Join(done, " "))
	return nil
}

// choose finds the best file for r on the indexes.
func (o *installOpts) choose(ctx context.Context, c *call, r requirement) (file, error) {
	var all []file
	for _, idx := range o.indexes {
		files, err := projectFiles(ctx, c, idx, r.name)
		if err != nil {
			var ne *shnet.Error
			if errors.As(err, &ne) {
				fmt.Fprintf(c.Stderr, "WARNING: Retrying is not offered: connection to the index failed: %s\n", ne.Msg)
			} else {
				fmt.Fprintf(c.Stderr, "WARNING: %v\n", err)
			}
			continue
		}
		all = append(all, files...)
	}
	pinnedPre := false
	for _, s := range r.specs {
		if v, ok := parseVersion(strings.TrimSuffix(s.ver, ".*")); ok && v.isPre() {
			pinnedPre = true
		}
	}
	py, _ := parseVersion(c.py)
	var versions []version
	seenV := map[string]bool{}
	var best, bestAny *file
	for i := range all {
		f := &all[i]
		if f.version.raw == "" {
			continue
		}
		if !seenV[f.version.raw] {
			seenV[f.version.raw] = true
			versions = append(versions, f.version)
		}
		if !matches(r.specs, f.version) {
			continue
		}
		if f.version.isPre() && !o.pre && !pinnedPre {
			continue
		}
		if f.yanked && !isPinned(r) {
			continue
		}
		if f.requiresPython != "" {
			if specs, ok := parseSpecifiers(f.requiresPython); ok && !matches(specs, py) {
				continue
			}
		}
		if bestAny == nil || f.version.compare(bestAny.version) > 0 {
			bestAny = f
		}
		if f.pure && (best == nil || f.version.compare(best.version) > 0) {
			best = f
		}
	}
	if best != nil {
		return *best, nil
	}
	if bestAny != nil {
		fmt.Fprintf(c.Stderr, "ERROR: %s %s has no pure-Python wheel (py3-none-any) on the index, only %s.\n"+
			"This sandbox's pip installs pure-Python wheels only: it cannot build sources or run native code.\n"+
			"The docker and e2b adapters run the real pip and can install it.\n", r.name, bestAny.version.raw, bestAny.name)
		return file{}, command.Exit(1)
	}
	sort.Slice(versions, func(i, j int) bool { return versions[i].compare(versions[j]) < 0 })
	vs := make([]string, len(versions))
	for i, v := range versions {
		vs[i] = v.raw
	}
	from := "none"
	if len(vs) > 0 {
		from = strings.Join(vs, ", ")
	}
	fmt.Fprintf(c.Stderr, "ERROR: Could not find a version that satisfies the requirement %s (from versions: %s)\nERROR: No matching distribution found for %s\n", r.String(), from, r.String())
	return file{}, command.Exit(1)
}

func isPinned(r requirement) bool {
	return len(r.specs) == 1 && (r.specs[0].op == "==" || r.specs[0].op == "===") && !strings.HasSuffix(r.specs[0].ver, "*")
}

// download fetches f and checks its sha256.
func (o *installOpts) download(ctx context.Context, c *call, f file) ([]byte, error) {
	u := *f.url
	data, _, _, err := get(ctx, c, &u, "*/*")
	if err != nil {
		msg := err.Error()
		var ne *shnet.Error
		if errors.As(err, &ne) {
			msg = ne.Msg
		}
		fmt.Fprintf(c.Stderr, "ERROR: Could not install packages due to a network error: %s (%s)\n", msg, redact(f.url))
		return nil, command.Exit(1)
	}
	o.printf(c, "  Downloading %s (%s)\n", f.name, formatSize(len(data)))
	if f.sha256 != "" {
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); !strings.EqualFold(got, f.sha256) {
			fmt.Fprintf(c.Stderr, "ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE INDEX. Someone may have tampered with them.\n    %s from %s:\n        Expected sha256 %s\n             Got        %s\n\n", f.name, redact(f.url), f.sha256, got)
			return nil, command.Exit(1)
		}
	}
	return data, nil
}

func redact(u *url.URL) string {
	v := *u
	v.User = nil
	return v.String()
}

// formatSize is pip's format_size.
func formatSize(n int) string {
	switch {
	case n > 1000*1000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n > 10*1000:
		return fmt.Sprintf("%d kB", n/1000)
	case n > 1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	}
	return fmt.Sprintf("%d bytes", n)
}

// wheelMetadata reads a wheel's .dist-info/METADATA.
func wheelMetadata(data []byte) (map[string][]string, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	for _, f := range zr.File {
		if dir, base := path.Split(f.Name); base == "METADATA" && strings.HasSuffix(strings.TrimSuffix(dir, "/"), ".dist-info") && strings.Count(f.Name, "/") == 1 {
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			var b bytes.Buffer
			_, err = b.ReadFrom(rc)
			rc.Close()
			if err != nil {
				return nil, err
			}
			return parseMetadata(b.Bytes()), nil
		}
	}
	return nil, errors.New("no .dist-info/METADATA")
}

// unpack installs a wheel's files into site(c).
func unpack(c *call, p *pick) error {
	zr, err := zip.NewReader(bytes.NewReader(p.data), int64(len(p.data)))
	if err != nil {
		return err
	}
	var distInfo string
	var record []string
	for _, f := range zr.File {
		name := path.Clean(f.Name)
		if strings.HasSuffix(f.Name, "/") || name == "." {
			continue
		}
		if strings.HasPrefix(name, "/") || name == ".." || strings.HasPrefix(name, "../") {
			return fmt.Errorf("%s: unsafe path %q in the wheel", p.file.name, f.Name)
		}
		target := path.Join(site(c), name)
		first, rest, _ := strings.Cut(name, "/")
		if strings.HasSuffix(first, ".data") {
			kind, sub, _ := strings.Cut(rest, "/")
			switch kind {
			case "purelib", "platlib":
				target = path.Join(site(c), sub)
			default:
				continue // scripts, headers, data: not installed
			}
		}
		if strings.HasSuffix(first, ".dist-info") {
			distInfo = first
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		var b bytes.Buffer
		_, err = b.ReadFrom(rc)
		rc.Close()
		if err != nil {
			return err
		}
		if err := writeFile(c, target, b.Bytes(), 0o644); err != nil {
			return err
		}
		rel := strings.TrimPrefix(target, site(c)+"/")
		if path.Base(name) != "RECORD" {
			record = append(record, rel)
		}
	}
	if distInfo == "" {
		return fmt.Errorf("%s has no .dist-info folder", p.file.name)
	}
	dir := path.Join(site(c), distInfo)
	extra := []string{distInfo + "/INSTALLER"}
	if err := writeFile(c, path.Join(dir, "INSTALLER"), []byte("pip\n"), 0o644); err != nil {
		return err
	}
	if p.top {
		extra = append(extra, distInfo+"/REQUESTED")
		if err := writeFile(c, path.Join(dir, "REQUESTED"), nil, 0o644); err != nil {
			return err
		}
	}
	var rec strings.Builder
	for _, r := range append(record, extra...) {
		rec.WriteString(r + ",,\n")
	}
	rec.WriteString(distInfo + "/RECORD,,\n")
	return writeFile(c, path.Join(dir, "RECORD"), []byte(rec.String()), 0o644)
}
