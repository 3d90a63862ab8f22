package parse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// FuncText is a function as bash's type and declare -f print it: the
// name, " () ", and the body re-formatted the way bash's print_cmd does
// (one command a line, four spaces a level, ";" between the commands of
// a group and after each command of an if or loop body). Constructs it
// does not know are printed as written.
func FuncText(name string, body *syntax.Stmt) string {
	var p funcPrinter
	p.b.WriteString(name + " () \n")
	if blk, ok := body.Cmd.(*syntax.Block); ok && len(body.Redirs) == 0 {
		p.b.WriteString("{ \n")
		p.list(blk.Stmts, 1, false)
		p.b.WriteString("\n}")
		return p.b.String()
	}
	p.b.WriteString(printNode(body))
	return p.b.String()
}

type funcPrinter struct{ b strings.Builder }

func (p *funcPrinter) indent(level int) { p.b.WriteString(strings.Repeat("    ", level)) }

// list prints stmts one a line at level; terminated puts ";" after the
// last too (if and loop bodies).
func (p *funcPrinter) list(stmts []*syntax.Stmt, level int, terminated bool) {
	for i, st := range stmts {
		if i > 0 {
			p.b.WriteString("\n")
		}
		p.indent(level)
		p.stmt(st, level)
		switch {
		case st.Background:
			p.b.WriteString(" &")
		case i < len(stmts)-1 || terminated:
			p.b.WriteString(";")
		}
	}
}

func (p *funcPrinter) stmt(st *syntax.Stmt, level int) {
	if st.Negated {
		p.b.WriteString("! ")
	}
	p.cmd(st.Cmd, level)
	for _, rd := range st.Redirs {
		p.b.WriteString(" " + redirText(rd))
	}
}

// redirText is a redirection as bash prints it: "> f", "2>&1", "<<< w".
func redirText(rd *syntax.Redirect) string {
	s := ""
	if rd.N != nil {
		s = rd.N.Value
	}
	s += rd.Op.String()
	switch rd.Op {
	case syntax.DplIn, syntax.DplOut:
		return s + printNode(rd.Word)
	case syntax.Hdoc, syntax.DashHdoc:
		return printNode(rd) // here-documents as written
	}
	return s + " " + printNode(rd.Word)
}

func (p *funcPrinter) cmd(c syntax.Command, level int) {
	switch c := c.(type) {
	case *syntax.CallExpr:
		var words []string
		for _, a := range c.Assigns {
			words = append(words, printNode(a))
		}
		for _, w := range c.Args {
			words = append(words, printNode(w))
		}
		p.b.WriteString(strings.Join(words, " "))
	case *syntax.BinaryCmd:
		p.stmt(c.X, level)
		p.b.WriteString(" " + c.Op.String() + " ")
		p.stmt(c.Y, level)
	case *syntax.Block:
		p.b.WriteString("{ \n")
		p.list(c.Stmts, level+1, false)
		p.b.WriteString("\n")
		p.indent(level)
		p.b.WriteString("}")
	case *syntax.IfClause:
		p.ifClause(c, level)
	case *syntax.WhileClause:
		p.b.WriteString(map[bool]string{false: "while ", true: "until "}[c.Until])
		p.inline(c.Cond, level)
		p.b.WriteString("; do\n")
		p.list(c.Do, level+1, true)
		p.b.WriteString("\n")
		p.indent(level)
		p.b.WriteString("done")
	case *syntax.ForClause:
		wi, ok := c.Loop.(*syntax.WordIter)
		if !ok || c.Select {
			p.b.WriteString(printNode(c))
			return
		}
		p.b.WriteString("for " + wi.Name.Value)
		if wi.InPos.IsValid() {
			p.b.WriteString(" in")
			for _, w := range wi.Items {
				p.b.WriteString(" " + printNode(w))
			}
		}
		p.b.WriteString(";\n")
		p.indent(level)
		p.b.WriteString("do\n")
		p.list(c.Do, level+1, true)
		p.b.WriteString("\n")
		p.indent(level)
		p.b.WriteString("done")
	case *syntax.CaseClause:
		p.b.WriteString("case " + printNode(c.Word) + " in \n")
		for _, it := range c.Items {
			p.indent(level + 1)
			var pats []string
			for _, w := range it.Patterns {
				pats = append(pats, printNode(w))
			}
			p.b.WriteString(strings.Join(pats, " | ") + ")\n")
			if len(it.Stmts) > 0 {
				p.list(it.Stmts, level+2, false)
				p.b.WriteString("\n")
			}
			p.indent(level + 1)
			p.b.WriteString(it.Op.String() + "\n")
		}
		p.indent(level)
		p.b.WriteString("esac")
	default:
		p.b.WriteString(printNode(c))
	}
}

// inline prints a condition list on one line: "a; b".
func (p *funcPrinter) inline(stmts []*syntax.Stmt, level int) {
	for i, st := range stmts {
		if i > 0 {
			p.b.WriteString("; ")
		}
		p.stmt(st, level)
	}
}

func (p *funcPrinter) ifClause(c *syntax.IfClause, level int) {
	p.b.WriteString("if ")
	p.inline(c.Cond, level)
	p.b.WriteString("; then\n")
	p.list(c.Then, level+1, true)
	p.b.WriteString("\n")
	if e := c.Else; e != nil {
		p.indent(level)
		p.b.WriteString("else\n")
		if len(e.Cond) > 0 {
			// elif is printed as an if inside else, as bash does
			p.indent(level + 1)
			p.ifClause(e, level+1)
			p.b.WriteString(";\n")
		} else {
			p.list(e.Then, level+1, true)
			p.b.WriteString("\n")
		}
	}
	p.indent(level)
	p.b.WriteString("fi")
}

// printNode is n's source text as mvdan's printer writes it.
func printNode(n syntax.Node) string {
	var b strings.Builder
	_ = syntax.NewPrinter().Print(&b, n)
	return b.String()
}
