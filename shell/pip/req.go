package pip

import (
	"fmt"
	"regexp"
	"strings"
)

// requirement is a PEP 508 requirement (no URL form).
type requirement struct {
	name   string // as written
	extras []string
	specs  []specifier
	spec   string // the specifier as written, for messages
	marker string
}

var nameRE = regexp.MustCompile(`^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*(.*)$`)

// parseRequirement parses "name[extra] (>=1,<2); marker".
func parseRequirement(s string) (requirement, error) {
	s = strings.TrimSpace(s)
	body, marker, _ := strings.Cut(s, ";")
	m := nameRE.FindStringSubmatch(strings.TrimSpace(body))
	if m == nil {
		return requirement{}, pipMessage(fmt.Sprintf("Invalid requirement: '%s'", s))
	}
	r := requirement{name: m[1], marker: strings.TrimSpace(marker)}
	if m[2] != "" {
		for _, e := range strings.Split(strings.Trim(m[2], "[]"), ",") {
			if e = strings.TrimSpace(e); e != "" {
				r.extras = append(r.extras, normalize(e))
			}
		}
	}
	spec := strings.TrimSpace(m[3])
	spec = strings.TrimSuffix(strings.TrimPrefix(spec, "("), ")")
	if strings.HasPrefix(spec, "@") {
		return requirement{}, pipMessage(fmt.Sprintf("Invalid requirement: '%s' (direct URL requirements are not offered by this pip)", s))
	}
	specs, ok := parseSpecifiers(spec)
	if !ok {
		return requirement{}, pipMessage(fmt.Sprintf("Invalid requirement: '%s'", s))
	}
	r.specs, r.spec = specs, strings.ReplaceAll(spec, " ", "")
	return r, nil
}

// pipMessage is an error printed as pip words it.
type pipMessage string

func (m pipMessage) Error() string { return string(m) }

func (r requirement) String() string { return r.name + r.spec }

var normRE = regexp.MustCompile(`[-_.]+`)

// normalize is PEP 503's name normalization.
func normalize(name string) string { return strings.ToLower(normRE.ReplaceAllString(name, "-")) }

// markerEnv is the marker environment of the sandbox's CPython, version
// py ("3.12.0"; DefaultPython when empty).
func markerEnv(py string) map[string]string {
	if py == "" {
		py = DefaultPython
	}
	return map[string]string{
		"os_name":                        "posix",
		"sys_platform":                   "wasi",
		"platform_machine":               "wasm32",
		"platform_python_implementation": "CPython",
		"platform_release":               "",
		"platform_system":                "WASI",
		"platform_version":               "",
		"python_version":                 minorOf(py),
		"python_full_version":            py,
		"implementation_name":            "cpython",
		"implementation_version":         py,
	}
}

// evalMarker evaluates a PEP 508 marker in env (markerEnv) with extra set
// to extra ("" none).
func evalMarker(env map[string]string, marker, extra string) (bool, error) {
	if strings.TrimSpace(marker) == "" {
		return true, nil
	}
	p := &markerParser{toks: tokenize(marker), extra: extra, env: env}
	v, err := p.or()
	if err == nil && p.i < len(p.toks) {
		err = fmt.Errorf("unexpected %q", p.toks[p.i])
	}
	if err != nil {
		return false, fmt.Errorf("invalid marker %q: %v", marker, err)
	}
	return v, nil
}

func tokenize(s string) []string {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '(' || c == ')':
			toks = append(toks, string(c))
			i++
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				toks = append(toks, s[i:])
				return toks
			}
			toks = append(toks, s[i:i+j+2])
			i += j + 2
		case strings.IndexByte("=!<>~", c) >= 0:
			j := i
			for j < len(s) && strings.IndexByte("=!<>~", s[j]) >= 0 {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			j := i
			for j < len(s) && strings.IndexByte(" \t()'\"=!<>~", s[j]) < 0 {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks
}

type markerParser struct {
	toks  []string
	i     int
	extra string
	env   map[string]string
}

func (p *markerParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *markerParser) or() (bool, error) {
	v, err := p.and()
	for err == nil && p.peek() == "or" {
		p.i++
		var w bool
		w, err = p.and()
		v = v || w
	}
	return v, err
}

func (p *markerParser) and() (bool, error) {
	v, err := p.atom()
	for err == nil && p.peek() == "and" {
		p.i++
		var w bool
		w, err = p.atom()
		v = v && w
	}
	return v, err
}

func (p *markerParser) atom() (bool, error) {
	if p.peek() == "(" {
		p.i++
		v, err := p.or()
		if err != nil {
			return false, err
		}
		if p.peek() != ")" {
			return false, fmt.Errorf("missing )")
		}
		p.i++
		return v, nil
	}
	lhs, lvar, err := p.value()
	if err != nil {
		return false, err
	}
	op := p.peek()
	p.i++
	if op == "not" && p.peek() == "in" {
		p.i++
		op = "not in"
	}
	rhs, rvar, err := p.value()
	if err != nil {
		return false, err
	}
	if lvar == "extra" || rvar == "extra" {
		lhs, rhs = normalize(lhs), normalize(rhs)
	}
	switch op {
	case "in":
		return strings.Contains(rhs, lhs), nil
	case "not in":
		return !strings.Contains(rhs, lhs), nil
	}
	a, aok := parseVersion(lhs)
	b, bok := parseVersion(rhs)
	if aok && bok {
		if op == "==" || op == "!=" || op == "~=" || op == "<" || op == ">" || op == "<=" || op == ">=" {
			return specifier{op, rhs}.matches(a), nil
		}
	}
	_ = b
	switch op {
	case "==", "===":
		return lhs == rhs, nil
	case "!=":
		return lhs != rhs, nil
	case "<":
		return lhs < rhs, nil
	case "<=":
		return lhs <= rhs, nil
	case ">":
		return lhs > rhs, nil
	case ">=":
		return lhs >= rhs, nil
	}
	return false, fmt.Errorf("unknown operator %q", op)
}

// value reads a quoted string or a variable; it returns the value and the
// variable's name ("" for a string).
func (p *markerParser) value() (string, string, error) {
	t := p.peek()
	if t == "" {
		return "", "", fmt.Errorf("unexpected end")
	}
	p.i++
	if t[0] == '\'' || t[0] == '"' {
		if len(t) < 2 || t[len(t)-1] != t[0] {
			return "", "", fmt.Errorf("unterminated string %s", t)
		}
		return t[1 : len(t)-1], "", nil
	}
	if t == "extra" {
		return p.extra, "extra", nil
	}
	v, ok := p.env[t]
	if !ok {
		return "", "", fmt.Errorf("unknown variable %q", t)
	}
	return v, t, nil
}
