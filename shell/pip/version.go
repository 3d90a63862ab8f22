package pip

import (
	"regexp"
	"strconv"
	"strings"
)

// version is a PEP 440 version, parsed for comparing.
type version struct {
	raw     string
	epoch   int
	release []int
	pre     [2]int // kind (0 a, 1 b, 2 rc; 3 none), number
	post    int    // -1 none
	dev     int    // -1 none
	local   string
}

var versionRE = regexp.MustCompile(`^v?(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(a|alpha|b|beta|c|rc|pre|preview)[-_.]?(\d*))?(?:-(\d+)|[-_.]?(post|rev|r)[-_.]?(\d*))?(?:[-_.]?(dev)[-_.]?(\d*))?(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?$`)

// parseVersion parses s, or returns false.
func parseVersion(s string) (version, bool) {
	m := versionRE.FindStringSubmatch(strings.ToLower(strings.TrimSpace(s)))
	if m == nil {
		return version{}, false
	}
	v := version{raw: s, pre: [2]int{3, 0}, post: -1, dev: -1, local: m[10]}
	v.epoch, _ = strconv.Atoi(m[1])
	for _, p := range strings.Split(m[2], ".") {
		n, _ := strconv.Atoi(p)
		v.release = append(v.release, n)
	}
	if m[3] != "" {
		switch m[3] {
		case "a", "alpha":
			v.pre[0] = 0
		case "b", "beta":
			v.pre[0] = 1
		default:
			v.pre[0] = 2
		}
		v.pre[1], _ = strconv.Atoi(m[4])
	}
	switch {
	case m[5] != "":
		v.post, _ = strconv.Atoi(m[5])
	case m[6] != "":
		v.post, _ = strconv.Atoi(m[7])
	}
	if m[8] != "" {
		v.dev, _ = strconv.Atoi(m[9])
	}
	return v, true
}

func (v version) isPre() bool { return v.pre[0] != 3 || v.dev >= 0 }

// compare orders versions as PEP 440 does (local labels compared as strings).
func (v version) compare(w version) int {
	if c := cmpInt(v.epoch, w.epoch); c != 0 {
		return c
	}
	for i := 0; i < max(len(v.release), len(w.release)); i++ {
		a, b := 0, 0
		if i < len(v.release) {
			a = v.release[i]
		}
		if i < len(w.release) {
			b = w.release[i]
		}
		if c := cmpInt(a, b); c != 0 {
			return c
		}
	}
	// A dev release with no pre or post sorts before the pre-releases.
	pa, pb := v.pre, w.pre
	if v.pre[0] == 3 && v.post < 0 && v.dev >= 0 {
		pa = [2]int{-1, 0}
	}
	if w.pre[0] == 3 && w.post < 0 && w.dev >= 0 {
		pb = [2]int{-1, 0}
	}
	if c := cmpInt(pa[0], pb[0]); c != 0 {
		return c
	}
	if c := cmpInt(pa[1], pb[1]); c != 0 {
		return c
	}
	if c := cmpInt(v.post, w.post); c != 0 {
		return c
	}
	da, db := v.dev, w.dev
	if da < 0 {
		da = 1 << 30
	}
	if db < 0 {
		db = 1 << 30
	}
	if c := cmpInt(da, db); c != 0 {
		return c
	}
	return strings.Compare(v.local, w.local)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// specifier is one clause of a version specifier: "==1.2.*", ">=2".
type specifier struct {
	op, ver string
}

// parseSpecifiers parses "==1.0, >=0.9" (spaces allowed).
func parseSpecifiers(s string) ([]specifier, bool) {
	var out []specifier
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		i := strings.IndexFunc(part, func(r rune) bool { return !strings.ContainsRune("=!<>~", r) })
		if i <= 0 {
			return nil, false
		}
		op, ver := part[:i], strings.TrimSpace(part[i:])
		switch op {
		case "==", "!=", "<=", ">=", "<", ">", "~=", "===":
		default:
			return nil, false
		}
		out = append(out, specifier{op, ver})
	}
	return out, true
}

// matches reports whether v satisfies every specifier.
func matches(specs []specifier, v version) bool {
	for _, s := range specs {
		if !s.matches(v) {
			return false
		}
	}
	return true
}

func (s specifier) matches(v version) bool {
	if s.op == "===" {
		return v.raw == s.ver
	}
	if prefix, ok := strings.CutSuffix(s.ver, ".*"); ok && (s.op == "==" || s.op == "!=") {
		p, ok := parseVersion(prefix)
		if !ok {
			return false
		}
		eq := v.epoch == p.epoch && len(v.release) >= len(p.release)
		for i := 0; eq && i < len(p.release); i++ {
			eq = v.release[i] == p.release[i]
		}
		return eq == (s.op == "==")
	}
	w, ok := parseVersion(s.ver)
	if !ok {
		return false
	}
	vv := v
	if w.local == "" {
		vv.local = ""
	}
	c := vv.compare(w)
	switch s.op {
	case "==":
		return c == 0
	case "!=":
		return c != 0
	case "<=":
		return c <= 0
	case ">=":
		return c >= 0
	case "<":
		return c < 0 && !(v.isPre() && !w.isPre() && sameRelease(v, w))
	case ">":
		return c > 0 && !(v.post >= 0 && w.post < 0 && sameRelease(v, w))
	case "~=":
		if len(w.release) < 2 || c < 0 {
			return false
		}
		for i := 0; i < len(w.release)-1; i++ {
			if i >= len(v.release) || v.release[i] != w.release[i] {
				return false
			}
		}
		return true
	}
	return false
}

func sameRelease(a, b version) bool {
	for i := 0; i < max(len(a.release), len(b.release)); i++ {
		x, y := 0, 0
		if i < len(a.release) {
			x = a.release[i]
		}
		if i < len(b.release) {
			y = b.release[i]
		}
		if x != y {
			return false
		}
	}
	return a.epoch == b.epoch
}
