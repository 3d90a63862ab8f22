package bash

import (
	"mvdan.cc/sh/v3/syntax"
)

// parseHost is the runner as its script reader sees it (parse.Host).
type parseHost struct{ r *Runner }

func (h parseHost) ExpandAliases() bool {
	return h.r.shopt["expand_aliases"] && len(h.r.aliases) > 0
}

func (h parseHost) Alias(name string) (string, bool) {
	s, ok := h.r.aliases[name]
	return s, ok
}

func (h parseHost) KshSubst(c *syntax.CmdSubst, text string) {
	sh := h.r.shared
	sh.mu.Lock()
	if sh.kshSubst == nil {
		sh.kshSubst = map[*syntax.CmdSubst]string{}
	}
	sh.kshSubst[c] = text
	sh.mu.Unlock()
}

func (h parseHost) AppendElem(e *syntax.ArrayElem) {
	sh := h.r.shared
	sh.mu.Lock()
	if sh.appendElems == nil {
		sh.appendElems = map[*syntax.ArrayElem]bool{}
	}
	sh.appendElems[e] = true
	sh.mu.Unlock()
}

// appendElem reports whether the array literal's element e was written
// [k]+=v.
func (r *Runner) appendElem(e *syntax.ArrayElem) bool {
	r.shared.mu.Lock()
	defer r.shared.mu.Unlock()
	return r.shared.appendElems[e]
}

// kshSubstErr is bash 5.2's error for mksh's ${ cmd;} and ${|cmd;}: a bad
// substitution, named by its source text.
func (r *Runner) kshSubstErr(c *syntax.CmdSubst) error {
	r.shared.mu.Lock()
	text, ok := r.shared.kshSubst[c]
	r.shared.mu.Unlock()
	if !ok {
		text = r.srcText(c.Pos(), c.End())
	}
	if text == "" {
		text = printNode(c)
	}
	return &shError{msg: text + ": bad substitution", status: 1, noExit: true}
}
