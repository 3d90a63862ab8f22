package git

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/shell/command"
)

// writeConfigFile stores cfg at p.
func writeConfigFile(fsys afero.Fs, p string, cfg *format.Config) error {
	var b bytes.Buffer
	if err := format.NewEncoder(&b).Encode(cfg); err != nil {
		return err
	}
	if err := fsys.MkdirAll(path.Dir(p), 0o755); err != nil {
		return err
	}
	return afero.WriteFile(fsys, p, b.Bytes(), 0o644)
}

func setValue(cfg *format.Config, key, value string, add bool) error {
	section, sub, name, ok := splitKey(key)
	if !ok {
		return &keyErr{key}
	}
	s := cfg.Section(section)
	if sub != "" {
		ss := s.Subsection(sub)
		if add {
			ss.AddOption(name, value)
		} else {
			ss.SetOption(name, value)
		}
		return nil
	}
	if add {
		s.AddOption(name, value)
	} else {
		s.SetOption(name, value)
	}
	return nil
}

type keyErr struct{ key string }

func (k *keyErr) Error() string { return "key does not contain a section: " + k.key }

func unsetValue(cfg *format.Config, key string) bool {
	section, sub, name, ok := splitKey(key)
	if !ok || !cfg.HasSection(section) {
		return false
	}
	s := cfg.Section(section)
	if sub != "" {
		if !s.HasSubsection(sub) {
			return false
		}
		ss := s.Subsection(sub)
		if !ss.HasOption(name) {
			return false
		}
		ss.RemoveOption(name)
		if len(ss.Options) == 0 {
			s.RemoveSubsection(sub)
		}
		return true
	}
	if !s.HasOption(name) {
		return false
	}
	s.RemoveOption(name)
	return true
}

// setConfig sets a value in the repository's config.
func (r *repo) setConfig(key, value string) error {
	p := path.Join(r.gitDir, "config")
	cfg, err := readConfigFile(r.c.FS, p)
	if err != nil {
		return err
	}
	if err := setValue(cfg, key, value, false); err != nil {
		return err
	}
	return writeConfigFile(r.c.FS, p, cfg)
}

func (r *repo) removeBranchConfig(branch string) error {
	p := path.Join(r.gitDir, "config")
	cfg, err := readConfigFile(r.c.FS, p)
	if err != nil {
		return err
	}
	if cfg.HasSection("branch") && cfg.Section("branch").HasSubsection(branch) {
		cfg.Section("branch").RemoveSubsection(branch)
		return writeConfigFile(r.c.FS, p, cfg)
	}
	return nil
}

// listConfig prints every value of cfg as name=value.
func listConfig(w *strings.Builder, cfg *format.Config) {
	for _, s := range cfg.Sections {
		for _, o := range s.Options {
			fmt.Fprintf(w, "%s.%s=%s\n", strings.ToLower(s.Name), strings.ToLower(o.Key), o.Value)
		}
		for _, ss := range s.Subsections {
			for _, o := range ss.Options {
				fmt.Fprintf(w, "%s.%s.%s=%s\n", strings.ToLower(s.Name), ss.Name, strings.ToLower(o.Key), o.Value)
			}
		}
	}
}

func cmdConfig(e *env, args []string) error {
	scope := ""
	action := ""
	file := ""
	var rest []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--global" || a == "--local" || a == "--system":
			scope = a[2:]
		case (a == "-f" || a == "--file") && i+1 < len(args):
			i++
			file = args[i]
		case a == "-l" || a == "--list":
			action = "list"
		case a == "--get":
			action = "get"
		case a == "--get-all":
			action = "get-all"
		case a == "--unset" || a == "--unset-all":
			action = "unset"
		case a == "--add":
			action = "add"
		case a == "--bool" || a == "--type=bool" || a == "--int" || a == "--type=int" || a == "--includes" || a == "--no-includes":
		case strings.HasPrefix(a, "-"):
			return notImpl("config option " + a)
		default:
			rest = append(rest, a)
		}
	}
	if scope == "system" {
		return notImpl("config --system (the sandbox has no system config)")
	}
	gitDir, _ := e.findGitDir()
	// the file to write
	target := ""
	switch {
	case file != "":
		target = e.abs(file)
	case scope == "global":
		target = e.globalConfigPath()
	default:
		if gitDir != "" {
			target = path.Join(gitDir, "config")
		}
	}
	if action == "" {
		switch len(rest) {
		case 0:
			return &usageErr{"no action specified"}
		case 1:
			action = "get"
		case 2:
			action = "set"
		default:
			return notImpl("config with a value pattern")
		}
	}
	switch action {
	case "list":
		var b strings.Builder
		var files []string
		switch {
		case file != "" || scope == "global":
			files = []string{target}
		case scope == "local":
			if gitDir == "" {
				return fatalf("--local can only be used inside a git repository")
			}
			files = []string{target}
		default:
			files = []string{e.globalConfigPath()}
			if gitDir != "" {
				files = append(files, path.Join(gitDir, "config"))
			}
		}
		for _, f := range files {
			cfg, err := readConfigFile(e.c.FS, f)
			if err != nil {
				return err
			}
			listConfig(&b, cfg)
		}
		if file == "" && scope == "" {
			for k, v := range e.config {
				fmt.Fprintf(&b, "%s=%s\n", k, v)
			}
		}
		fmt.Fprint(e.out, b.String())
		return nil
	case "get", "get-all":
		if len(rest) != 1 {
			return &usageErr{"wrong number of arguments, should be 1"}
		}
		key := rest[0]
		if _, _, _, ok := splitKey(key); !ok {
			fmt.Fprintf(e.errw, "error: key does not contain a section: %s\n", key)
			return command.Exit(1)
		}
		var v string
		var ok bool
		if file != "" || scope != "" {
			if scope == "local" && gitDir == "" {
				return fatalf("--local can only be used inside a git repository")
			}
			cfg, err := readConfigFile(e.c.FS, target)
			if err != nil {
				return err
			}
			v, ok = configValue(cfg, key)
		} else {
			v, ok = e.get(gitDir, key)
		}
		if !ok {
			return errExit1
		}
		fmt.Fprintln(e.out, v)
		return nil
	case "set", "add":
		if len(rest) != 2 {
			return &usageErr{"wrong number of arguments, should be 2"}
		}
		if target == "" {
			return fatalf("not in a git directory")
		}
		cfg, err := readConfigFile(e.c.FS, target)
		if err != nil {
			return err
		}
		if err := setValue(cfg, rest[0], rest[1], action == "add"); err != nil {
			fmt.Fprintf(e.errw, "error: %v\n", err)
			return command.Exit(2)
		}
		return writeConfigFile(e.c.FS, target, cfg)
	case "unset":
		if len(rest) != 1 {
			return &usageErr{"wrong number of arguments, should be 1"}
		}
		if target == "" {
			return fatalf("not in a git directory")
		}
		cfg, err := readConfigFile(e.c.FS, target)
		if err != nil {
			return err
		}
		if !unsetValue(cfg, rest[0]) {
			return command.Exit(5)
		}
		return writeConfigFile(e.c.FS, target, cfg)
	}
	return nil
}
