package git

import (
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/spf13/afero"
)

// globalConfigPath is the sandbox user's config file: $XDG_CONFIG_HOME/
// git/config when it exists, else $HOME/.gitconfig (git's order for
// writing with --global).
func (e *env) globalConfigPath() string {
	home, _ := e.c.Env("HOME")
	if home == "" {
		home = "/"
	}
	if x, ok := e.c.Env("XDG_CONFIG_HOME"); ok && x != "" {
		p := path.Join(e.abs(x), "git/config")
		if _, err := e.c.FS.Stat(p); err == nil {
			return p
		}
	} else if p := path.Join(home, ".config/git/config"); fileExists(e.c.FS, p) {
		return p
	}
	return path.Join(e.abs(home), ".gitconfig")
}

func fileExists(fsys afero.Fs, p string) bool {
	_, err := fsys.Stat(p)
	return err == nil
}

// readConfigFile decodes a git config file of the sandbox; a missing file
// is an empty config.
func readConfigFile(fsys afero.Fs, p string) (*format.Config, error) {
	cfg := format.New()
	b, err := afero.ReadFile(fsys, p)
	if err != nil {
		return cfg, nil
	}
	if err := format.NewDecoder(bytes.NewReader(b)).Decode(cfg); err != nil {
		return nil, fatalf("bad config file %s: %v", p, err)
	}
	return cfg, nil
}

// splitKey splits "section.sub.name" into its parts (sub may be empty).
func splitKey(key string) (section, sub, name string, ok bool) {
	i := strings.Index(key, ".")
	j := strings.LastIndex(key, ".")
	if i < 0 || i == j && j == len(key)-1 || i == 0 {
		return "", "", "", false
	}
	section, name = key[:i], key[j+1:]
	if i != j {
		sub = key[i+1 : j]
	}
	return strings.ToLower(section), sub, strings.ToLower(name), name != ""
}

func configValue(cfg *format.Config, key string) (string, bool) {
	section, sub, name, ok := splitKey(key)
	if !ok || cfg == nil {
		return "", false
	}
	for _, s := range cfg.Sections {
		if !strings.EqualFold(s.Name, section) {
			continue
		}
		opts := s.Options
		if sub != "" {
			opts = nil
			for _, ss := range s.Subsections {
				if ss.Name == sub {
					opts = append(opts, ss.Options...)
				}
			}
		}
		var v string
		found := false
		for _, o := range opts {
			if strings.EqualFold(o.Key, name) {
				v, found = o.Value, true
			}
		}
		if found {
			return v, true
		}
	}
	return "", false
}

// get returns a config value: -c first, then the repository's config
// (when gitDir is set), then the user's.
func (e *env) get(gitDir, key string) (string, bool) {
	if v, ok := e.config[strings.ToLower(key)]; ok {
		return v, true
	}
	if gitDir != "" {
		if cfg, err := readConfigFile(e.c.FS, path.Join(gitDir, "config")); err == nil {
			if v, ok := configValue(cfg, key); ok {
				return v, true
			}
		}
	}
	if cfg, err := readConfigFile(e.c.FS, e.globalConfigPath()); err == nil {
		if v, ok := configValue(cfg, key); ok {
			return v, true
		}
	}
	return "", false
}

// ident is who and when, for author or committer ("AUTHOR"/"COMMITTER").
// implicit is true when the name or email came from the fallback.
func (r *repo) ident(who string) (*object.Signature, bool, error) {
	name, ok := r.c.Env("GIT_" + who + "_NAME")
	implicit := false
	if !ok {
		name, ok = r.get(r.gitDir, "user.name")
	}
	if !ok {
		name, implicit = r.defaultUser(), true
	}
	email, ok := r.c.Env("GIT_" + who + "_EMAIL")
	if !ok {
		email, ok = r.get(r.gitDir, "user.email")
	}
	if !ok {
		email, ok = r.c.Env("EMAIL")
	}
	if !ok {
		host, _ := r.c.Env("HOSTNAME")
		if host == "" {
			host = "sandbox"
		}
		email, implicit = r.defaultUser()+"@"+host, true
	}
	if strings.TrimSpace(name) == "" {
		return nil, false, fatalf("empty ident name (for <%s>) not allowed", email)
	}
	when := time.Now()
	if d, ok := r.c.Env("GIT_" + who + "_DATE"); ok && d != "" {
		t, err := parseDate(d)
		if err != nil {
			return nil, false, fatalf("invalid date format: %s", d)
		}
		when = t
	}
	return &object.Signature{Name: name, Email: email, When: when}, implicit, nil
}

func (e *env) defaultUser() string {
	if u, ok := e.c.Env("USER"); ok && u != "" {
		return u
	}
	return "user"
}

// parseDate reads the date forms git takes in GIT_*_DATE: "@<unix> <tz>",
// "<unix> <tz>", RFC 2822 and ISO 8601.
func parseDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	f := strings.Fields(strings.TrimPrefix(s, "@"))
	if len(f) >= 1 {
		if secs, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			loc := time.UTC
			if len(f) == 2 {
				if l, ok := parseTZ(f[1]); ok {
					loc = l
				}
			}
			return time.Unix(secs, 0).In(loc), nil
		}
	}
	for _, layout := range []string{time.RFC1123Z, "Mon, 2 Jan 2006 15:04:05 -0700", "Mon Jan 2 15:04:05 2006 -0700",
		"2006-01-02T15:04:05-07:00", "2006-01-02 15:04:05 -0700", "2006-01-02T15:04:05Z07:00", "2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("bad date %q", s)
}

func parseTZ(tz string) (*time.Location, bool) {
	if len(tz) != 5 || (tz[0] != '+' && tz[0] != '-') {
		return nil, false
	}
	h, err1 := strconv.Atoi(tz[1:3])
	m, err2 := strconv.Atoi(tz[3:5])
	if err1 != nil || err2 != nil {
		return nil, false
	}
	off := h*3600 + m*60
	if tz[0] == '-' {
		off = -off
	}
	return time.FixedZone("", off), true
}

const implicitIdentAdvice = `Your name and email address were configured automatically based
on your username and hostname. Please check that they are accurate.
You can suppress this message by setting them explicitly. Run the
following command and follow the instructions in your editor to edit
your configuration file:

    git config --global --edit

After doing this, you may fix the identity used for this commit with:

    git commit --amend --reset-author
`
