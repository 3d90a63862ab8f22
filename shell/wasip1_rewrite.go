//go:build wasip1

package shell

// Pipelines, here-documents and here-strings in the busybox image.
//
// mvdan.cc/sh's interpreter makes an os.Pipe for each of them, and os.Pipe
// is ENOSYS on wasip1. This project does not patch that library; instead
// the parsed program is rewritten before it runs (the syntax tree itself,
// never printed and parsed again), so that the interpreter meets none of
// them:
//
//   - An endless device as stdin (`cmd < /dev/zero`, /dev/urandom) becomes a
//     pipeline from it, `command cat /dev/zero | cmd`.
//   - A here-document (<<EOF, <<-EOF) or here-string (<<<) on a statement
//     becomes a write of its body to a temporary file of the sandbox, the
//     statement with `< FILE` in its place, and the removal of the file,
//     keeping the statement's exit status:
//
//     __agentenkit_hdoc FILE "BODY" && { STMT <FILE; __agentenkit_hdoc_done FILE "$?"; }
//
//     The body is expanded when the statement runs, as bash does: an
//     unquoted delimiter's body becomes a double-quoted word (with the
//     quoting adjusted so that it expands exactly as a here-document), a
//     quoted delimiter's a literal. A here-string's word is expanded as an
//     assignment value (no splitting, no globbing), like bash's.
//   - A pipeline `a | b | c` (|& adds 2>&1 to the stage) becomes `__agentenkit_pipeline ID
//     "$(shopt -o; shopt)" "$0" "$@"`: its builtin runs each stage as a
//     busybox instance of its own through the host (sh -c STAGE), the
//     stages' stdio joined by host pipes, the first reading the command's
//     stdin, the last writing its stdout. Each stage starts with the
//     script's functions, the shell's variables (exported ones in its
//     environment), its options and positional parameters, as a subshell
//     would. The status is the last stage's, or with pipefail the
//     rightmost failure's.

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/agentenkit/agentenkit/shell/posixfs"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Names of the builtins rewritten programs call.
const (
	wasiPipelineCmd = "__agentenkit_pipeline"
	wasiHdocCmd     = "__agentenkit_hdoc"
	wasiHdocDoneCmd = "__agentenkit_hdoc_done"
	// wasiHereVar carries a here-string's expanded word to wasiHdocCmd.
	wasiHereVar = "__AGENTENKIT_HERE_STRING"
)

func init() {
	platformRewrite = wasiRewrite
	register(wasiPipeline, wasiPipelineCmd)
	register(wasiHdoc, wasiHdocCmd)
	register(wasiHdocDone, wasiHdocDoneCmd)
}

// wasiPipe is one rewritten pipeline: its stages as shell text.
type wasiPipe struct {
	stages  []string
	pipeAll []bool         // stage i's stderr goes into the pipe too (|&)
	stmts   []*syntax.Stmt // while flattening
}

var (
	wasiMu      sync.Mutex
	wasiPipes   = map[string]*wasiPipe{}
	wasiFuncs   = map[*session][]string{} // printed function definitions, per session
	wasiPipeSeq int
)

// wasiRewrite rewrites node in place (see the file comment) and reports
// whether it changed anything. The function definitions it holds are noted
// first, as written, for the pipelines' stages.
func wasiRewrite(s *session, node syntax.Node) bool {
	var funcs []string
	syntax.Walk(node, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok {
			if text, err := wasiPrint(fd); err == nil {
				funcs = append(funcs, text)
			}
		}
		return true
	})
	if len(funcs) > 0 {
		wasiMu.Lock()
		wasiFuncs[s] = append(wasiFuncs[s], funcs...)
		wasiMu.Unlock()
	}
	changed := false
	// An endless device as stdin, `cmd < /dev/zero`, is a file no
	// temporary copy can hold: it becomes `command cat /dev/zero | cmd`.
	syntax.Walk(node, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		for i, r := range st.Redirs {
			if r.Op != syntax.RdrIn || (r.N != nil && r.N.Value != "0") || r.Word == nil {
				continue
			}
			dev := r.Word.Lit()
			if dev != "/dev/zero" && dev != "/dev/urandom" && dev != "/dev/random" {
				continue
			}
			rest := append(slices.Clone(st.Redirs[:i]), st.Redirs[i+1:]...)
			inner := &syntax.Stmt{Cmd: st.Cmd, Redirs: rest, Position: st.Position}
			src := wasiCall(wasiLit("command"), wasiLit("cat"), wasiLit(dev))
			st.Cmd = &syntax.BinaryCmd{Op: syntax.Pipe, X: src, Y: inner}
			st.Redirs = nil
			changed = true
			break
		}
		return true
	})
	// Pipelines next, from the outside in: a stage is printed as written
	// and rewritten by its own shell.
	syntax.Walk(node, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		bc, ok := st.Cmd.(*syntax.BinaryCmd)
		if !ok || (bc.Op != syntax.Pipe && bc.Op != syntax.PipeAll) {
			return true
		}
		call, err := wasiPipeline1(bc)
		if err != nil {
			return true // leave it; the interpreter reports what it can
		}
		st.Cmd = call
		changed = true
		return false
	})
	syntax.Walk(node, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		if wasiHdocStmt(s, st) {
			changed = true
		}
		return true
	})
	return changed
}

func wasiPrint(n syntax.Node) (string, error) {
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, n); err != nil {
		return "", err
	}
	return b.String(), nil
}

// wasiPipeline1 records the pipeline bc and returns the call that runs it.
func wasiPipeline1(bc *syntax.BinaryCmd) (*syntax.CallExpr, error) {
	p := &wasiPipe{}
	var flatten func(st *syntax.Stmt) error
	flatten = func(st *syntax.Stmt) error {
		if bc, ok := st.Cmd.(*syntax.BinaryCmd); ok && (bc.Op == syntax.Pipe || bc.Op == syntax.PipeAll) &&
			!st.Negated && !st.Background && len(st.Redirs) == 0 {
			return flattenBin(bc, flatten, p)
		}
		p.stmts = append(p.stmts, st)
		return nil
	}
	if err := flattenBin(bc, flatten, p); err != nil {
		return nil, err
	}
	for i, st := range p.stmts {
		if i < len(p.pipeAll) && p.pipeAll[i] {
			// |& is 2>&1 | after the stage's own redirections.
			c := *st
			c.Redirs = append(slices.Clone(st.Redirs), &syntax.Redirect{Op: syntax.DplOut, N: &syntax.Lit{Value: "2"}, Word: &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "1"}}}})
			st = &c
		}
		text, err := wasiPrint(st)
		if err != nil {
			return nil, err
		}
		p.stages = append(p.stages, text)
	}
	p.stmts = nil
	wasiMu.Lock()
	wasiPipeSeq++
	id := strconv.Itoa(wasiPipeSeq)
	wasiPipes[id] = p
	wasiMu.Unlock()
	// Our own text, not the user's: the call with its arguments.
	f, err := syntax.NewParser().Parse(strings.NewReader(wasiPipelineCmd+` `+id+` "$(shopt -o; shopt)" "$0" "$@"`), "")
	if err != nil {
		return nil, err
	}
	return f.Stmts[0].Cmd.(*syntax.CallExpr), nil
}

func flattenBin(bc *syntax.BinaryCmd, flatten func(*syntax.Stmt) error, p *wasiPipe) error {
	if err := flatten(bc.X); err != nil {
		return err
	}
	for len(p.pipeAll) < len(p.stmts) {
		p.pipeAll = append(p.pipeAll, false)
	}
	if bc.Op == syntax.PipeAll {
		p.pipeAll[len(p.stmts)-1] = true
	}
	return flatten(bc.Y)
}

// wasiLit is a word of one literal argument.
func wasiLit(v string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: v}}}
}

func wasiCall(args ...*syntax.Word) *syntax.Stmt {
	return &syntax.Stmt{Cmd: &syntax.CallExpr{Args: args}}
}

// wasiHdocStmt replaces the here-documents and here-strings of st, if it
// has any, and reports whether it did.
func wasiHdocStmt(s *session, st *syntax.Stmt) bool {
	if !slices.ContainsFunc(st.Redirs, func(r *syntax.Redirect) bool {
		return r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc
	}) {
		return false
	}
	var writes, dones []*syntax.Stmt
	redirs := make([]*syntax.Redirect, 0, len(st.Redirs))
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		default:
			redirs = append(redirs, r)
			continue
		}
		tmp := s.procSubstPath()
		if r.Op == syntax.WordHdoc {
			w := wasiCall(wasiLit(wasiHdocCmd), wasiLit("-s"), wasiLit(tmp))
			w.Cmd.(*syntax.CallExpr).Assigns = []*syntax.Assign{{Name: &syntax.Lit{Value: wasiHereVar}, Value: r.Word}}
			writes = append(writes, w)
		} else {
			writes = append(writes, wasiCall(wasiLit(wasiHdocCmd), wasiLit(tmp), wasiHdocBody(r)))
		}
		dones = append(dones, wasiCall(wasiLit(wasiHdocDoneCmd), wasiLit(tmp),
			&syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{&syntax.ParamExp{Short: true, Param: &syntax.Lit{Value: "?"}}}}}}))
		redirs = append(redirs, &syntax.Redirect{Op: syntax.RdrIn, N: r.N, Word: wasiLit(tmp)})
	}
	inner := &syntax.Stmt{Cmd: st.Cmd, Redirs: redirs, Position: st.Position}
	// writes... && { inner; done FILE "$?"...; }: each done removes its
	// file and passes the status on, so the last gives inner's.
	body := append([]*syntax.Stmt{inner}, dones...)
	var chain *syntax.Stmt = &syntax.Stmt{Cmd: &syntax.Block{Stmts: body}}
	for i := len(writes) - 1; i >= 0; i-- {
		chain = &syntax.Stmt{Cmd: &syntax.BinaryCmd{Op: syntax.AndStmt, X: writes[i], Y: chain}}
	}
	st.Cmd = chain.Cmd
	st.Redirs = nil
	return true
}

// wasiHdocBody is the word that expands to a here-document's body when
// the statement runs.
func wasiHdocBody(r *syntax.Redirect) *syntax.Word {
	dash := r.Op == syntax.DashHdoc
	if r.Hdoc == nil {
		return wasiLit("")
	}
	if hdocQuoted(r.Word) {
		lit := r.Hdoc.Lit()
		if lit == "" && len(r.Hdoc.Parts) > 0 {
			var b strings.Builder
			for _, p := range r.Hdoc.Parts {
				if l, ok := p.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				}
			}
			lit = b.String()
		}
		if dash {
			lit = stripTabs(lit, true)
		}
		return &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{&syntax.Lit{Value: escapeDouble(lit)}}}}}
	}
	parts := make([]syntax.WordPart, 0, len(r.Hdoc.Parts))
	lineStart := true
	for _, p := range r.Hdoc.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			parts = append(parts, p)
			lineStart = false
			continue
		}
		v := l.Value
		if dash {
			v = stripTabs(v, lineStart)
		}
		if v != "" {
			lineStart = strings.HasSuffix(v, "\n")
		}
		parts = append(parts, &syntax.Lit{ValuePos: l.ValuePos, ValueEnd: l.ValueEnd, Value: hdocToDouble(v)})
	}
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: parts}}}
}

// hdocQuoted reports whether a here-document's delimiter is quoted
// (<<'EOF', <<"EOF", <<\EOF): its body is then literal.
func hdocQuoted(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.Contains(p.Value, `\`) {
				return true
			}
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		}
	}
	return false
}

// stripTabs removes the leading tabs of every line of v (<<-); the first
// line only when it starts a line of the body.
func stripTabs(v string, atLineStart bool) string {
	lines := strings.Split(v, "\n")
	for i := range lines {
		if i > 0 || atLineStart {
			lines[i] = strings.TrimLeft(lines[i], "\t")
		}
	}
	return strings.Join(lines, "\n")
}

// hdocToDouble turns literal text of a here-document body into literal
// text of a double-quoted word that expands to the same: in a body only
// \\ \$ \` and \newline are escapes, while in double quotes \" is one too,
// and a bare " would end the word when printed.
func hdocToDouble(v string) string {
	if !strings.ContainsAny(v, `"\`) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\\' && i+1 < len(v):
			if v[i+1] == '"' {
				b.WriteString(`\\\"`) // \" stays \" in a body
			} else {
				b.WriteByte('\\')
				b.WriteByte(v[i+1])
			}
			i++
		case c == '"':
			b.WriteString(`\"`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// escapeDouble makes v literal text of a double-quoted word.
func escapeDouble(v string) string {
	if !strings.ContainsAny(v, "\"\\$`") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '"', '\\', '$', '`':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// wasiHdoc is `__agentenkit_hdoc FILE BODY` (a here-document) and
// `__agentenkit_hdoc -s FILE` (a here-string, its word in wasiHereVar).
func wasiHdoc(ctx context.Context, c *Call, args []string) error {
	var name, body string
	switch {
	case len(args) == 3 && args[1] == "-s":
		v, _ := c.Env(wasiHereVar)
		name, body = args[2], v+"\n"
	case len(args) == 3:
		name, body = args[1], args[2]
	default:
		return c.Errorf(2, args[0], "usage: %s FILE BODY | -s FILE", args[0])
	}
	f, err := c.FS.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return c.Errorf(1, "bash", "cannot create temp file for here-document: %s", posixfs.ErrText(err))
	}
	_, err = io.WriteString(f, body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = c.FS.Remove(name)
		return c.Errorf(1, "bash", "cannot write temp file for here-document: %s", posixfs.ErrText(err))
	}
	return nil
}

// wasiHdocDone is `__agentenkit_hdoc_done FILE STATUS`: it removes FILE
// and exits with STATUS.
func wasiHdocDone(ctx context.Context, c *Call, args []string) error {
	if len(args) != 3 {
		return c.Errorf(2, args[0], "usage: %s FILE STATUS", args[0])
	}
	_ = c.FS.Remove(args[1])
	n, _ := strconv.Atoi(args[2])
	return Exit(n)
}

// wasiPosixOpts are the set -o options `shopt -o` lists.
var wasiPosixOpts = map[string]bool{"allexport": true, "errexit": true, "noexec": true, "noglob": true, "nounset": true, "xtrace": true, "pipefail": true}

// wasiSkipVars are variables a stage's shell sets itself.
var wasiSkipVars = map[string]bool{
	"PWD": true, "OLDPWD": false, "SHLVL": true, "RANDOM": true, "SRANDOM": true, "SECONDS": true,
	"LINENO": true, "BASHPID": true, "PPID": true, "EPOCHSECONDS": true, "EPOCHREALTIME": true,
	"UID": true, "EUID": true, "GID": true, "FUNCNAME": true, "BASH_SOURCE": true, "BASH_LINENO": true,
	"PIPESTATUS": true, "DIRSTACK": true, "GROUPS": true, "BASH_REMATCH": false, "OPTIND": false,
	wasiHereVar: true,
}

// wasiPipeline is `__agentenkit_pipeline ID OPTIONS $0 ARGS...`.
func wasiPipeline(ctx context.Context, c *Call, args []string) error {
	if len(args) < 4 {
		return c.Errorf(2, args[0], "usage: %s ID OPTIONS NAME [ARGS...]", args[0])
	}
	wasiMu.Lock()
	p := wasiPipes[args[1]]
	s, _ := sessionFrom(ctx)
	funcs := slices.Clone(wasiFuncs[s])
	wasiMu.Unlock()
	if p == nil {
		return c.Errorf(2, args[0], "unknown pipeline %q", args[1])
	}
	optText, zero, params := args[2], args[3], args[4:]

	var pre strings.Builder
	for _, f := range funcs {
		pre.WriteString(f)
		pre.WriteString("\n")
	}
	wasiVars(ctx, &pre)
	pipefail := false
	var setOpts []string
	for line := range strings.Lines(optText) {
		f := strings.Split(strings.TrimSpace(line), "\t")
		if len(f) < 2 || f[1] != "on" || len(f) > 2 {
			continue // off, or not supported
		}
		switch {
		case f[0] == "pipefail":
			pipefail = true
			setOpts = append(setOpts, "set -o pipefail")
		case wasiPosixOpts[f[0]]:
			setOpts = append(setOpts, "set -o "+f[0])
		default:
			setOpts = append(setOpts, "shopt -s "+f[0])
		}
	}
	// The options last, so that xtrace shows the stage only.
	for _, o := range setOpts {
		pre.WriteString(o)
		pre.WriteString("\n")
	}
	prelude := pre.String()

	env := c.Environ()
	handles := make([]int32, 0, len(p.stages))
	free := func() {
		for _, h := range handles {
			hostProcFree(h)
		}
	}
	for i, stage := range p.stages {
		spec := procSpec{
			Image: "busybox",
			Args:  append([]string{"sh", "-c", prelude + stage, zero}, params...),
			Dir:   c.Dir,
			Env:   env,
			Umask: umaskOf(c),
		}
		if i > 0 {
			spec.StdinFrom = handles[i-1]
		}
		h, err := startProc(spec)
		if err != nil {
			free()
			fmt.Fprintf(c.Stderr, "%s: %v\n", s.nameOr("bash"), err)
			return Exit(126)
		}
		handles = append(handles, h)
	}
	last := len(handles) - 1
	outs := []*procOut{{h: handles[last], fd: 1, w: c.Stdout}}
	for _, h := range handles {
		outs = append(outs, &procOut{h: h, fd: 2, w: c.Stderr})
	}
	job := &procJob{procs: handles, stdin: c.Stdin, outs: outs}
	codes, err := job.run(ctx)
	switch {
	case err == errWriterGone:
		return Exit(141)
	case err != nil:
		return err
	}
	status := codes[last]
	if pipefail {
		for i := last; i >= 0; i-- {
			if codes[i] != 0 {
				status = codes[i]
				break
			}
		}
	}
	return Exit(status)
}

func (s *session) nameOr(def string) string {
	if s == nil || s.name == "" {
		return def
	}
	return s.name
}

// wasiVars writes assignments of the shell's variables that a stage's
// shell would not have otherwise: those not exported (exported strings
// travel in the environment).
func wasiVars(ctx context.Context, w *strings.Builder) {
	var env expand.Environ
	func() {
		defer func() { _ = recover() }() // not run by the interpreter
		env = interp.HandlerCtx(ctx).Env
	}()
	if env == nil {
		return
	}
	type kv struct{ name, text string }
	var list []kv
	env.Each(func(name string, vr expand.Variable) bool {
		if !vr.IsSet() || vr.ReadOnly || wasiSkipVars[name] || !syntax.ValidName(name) {
			return true
		}
		if vr.Exported && vr.Kind == expand.String {
			return true
		}
		q := func(s string) string {
			out, err := syntax.Quote(s, syntax.LangBash)
			if err != nil {
				return "''"
			}
			return out
		}
		var text string
		switch vr.Kind {
		case expand.String:
			text = name + "=" + q(vr.Str)
		case expand.Indexed:
			parts := make([]string, len(vr.List))
			for i, v := range vr.List {
				parts[i] = q(v)
			}
			text = name + "=(" + strings.Join(parts, " ") + ")"
		case expand.Associative:
			keys := make([]string, 0, len(vr.Map))
			for k := range vr.Map {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			parts := make([]string, len(keys))
			for i, k := range keys {
				parts[i] = "[" + q(k) + "]=" + q(vr.Map[k])
			}
			text = "declare -A " + name + "=(" + strings.Join(parts, " ") + ")"
		case expand.NameRef:
			text = "declare -n " + name + "=" + q(vr.Str)
		default:
			return true
		}
		list = append(list, kv{name, text})
		return true
	})
	sort.Slice(list, func(i, j int) bool { return list[i].name < list[j].name })
	for _, v := range list {
		w.WriteString(v.text)
		w.WriteString("\n")
	}
}
