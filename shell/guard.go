package shell

// Guards for the goroutines the interpreter starts.
//
// mvdan.cc/sh's interpreter runs a background job (cmd &) and the left
// side of a pipeline (a | b) in goroutines of its own, with no recover: a
// panic there (a bug of the interpreter, such as `shift -1 &`) would end
// the host process. The parsed program is therefore rewritten so that such
// a goroutine runs only a call of the session's internal guard command,
// whose argument is the statement as shell text:
//
//	cmd &        becomes  __agentenkit_sh_guard 'cmd' &
//	a | b        becomes  __agentenkit_sh_guard 'a' | b
//
// The guard runs the text through the interpreter's eval in the same
// Runner (the job's or stage's own subshell, with its variables, functions
// and stdio), under a recover: a panic is a failed command, status 2 with
// "bash: internal error: ..." on its stderr, as Run reports one on the main
// goroutine. The status, exit and return pass through unchanged.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// shGuardCmd is the internal command a guarded statement becomes.
const shGuardCmd = shInternal + "guard"

// guardGoroutines rewrites node so that no statement the interpreter runs
// on a goroutine of its own runs outside the guard (see the file comment),
// innermost first, and reports whether it changed anything.
func guardGoroutines(node syntax.Node) bool {
	var stmts []*syntax.Stmt
	var pipes []*syntax.BinaryCmd
	var order []syntax.Node
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if (n.Background || n.Disown) && !isGuardCall(n.Cmd) {
				stmts = append(stmts, n)
				order = append(order, n)
			}
		case *syntax.BinaryCmd:
			if (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) && n.X != nil && !isGuardStmt(n.X) {
				pipes = append(pipes, n)
				order = append(order, n)
			}
		}
		return true
	})
	changed := false
	// A parent comes before its children in the walk: guard backwards, so
	// that a parent's text holds its children already guarded.
	for _, n := range slices.Backward(order) {
		switch n := n.(type) {
		case *syntax.Stmt:
			inner := *n
			// bash's status of `! cmd &` is 0: the negation is dropped.
			inner.Background, inner.Disown, inner.Negated = false, false, false
			inner.Comments = nil
			call, ok := guardCall(&inner)
			if !ok {
				continue
			}
			n.Cmd, n.Redirs, n.Negated = call, nil, false
			changed = true
		case *syntax.BinaryCmd:
			call, ok := guardCall(n.X)
			if !ok {
				continue
			}
			n.X = &syntax.Stmt{Cmd: call, Position: n.X.Position}
			changed = true
		}
	}
	return changed
}

// guardCall is the call of the guard with st as its text; false when st
// cannot be printed (it is then left as it is).
func guardCall(st *syntax.Stmt) (*syntax.CallExpr, bool) {
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, st); err != nil {
		return nil, false
	}
	quoted, err := syntax.Quote(b.String(), syntax.LangBash)
	if err != nil {
		return nil, false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(shGuardCmd+" "+quoted), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || !isGuardCall(call) {
		return nil, false
	}
	return call, true
}

func isGuardStmt(st *syntax.Stmt) bool {
	return !st.Background && !st.Disown && len(st.Redirs) == 0 && !st.Negated && isGuardCall(st.Cmd)
}

func isGuardCall(cmd syntax.Command) bool {
	call, ok := cmd.(*syntax.CallExpr)
	return ok && len(call.Assigns) == 0 && len(call.Args) == 2 && call.Args[0].Lit() == shGuardCmd
}

// guard runs the guarded text src in the Runner of hc (see the file
// comment). A panic is status 2 with its message.
func (s *session) guard(ctx context.Context, hc interp.HandlerContext, src string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(hc.Stderr, "%s: internal error: %v\n", s.name, p)
			err = interp.ExitStatus(2)
		}
	}()
	return hc.Builtin(ctx, []string{"eval", src})
}
