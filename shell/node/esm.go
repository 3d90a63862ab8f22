package node

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/dop251/goja"
)

// ES modules: goja runs scripts only, so a module written with import and
// export (a .mjs file, or a file or -e code that does not parse as a
// script because of them) is rewritten into CommonJS before it is
// compiled:
//
//	import x from 'm'            const x = __esmDefault(require('m'))
//	import * as ns from 'm'      const ns = __esmNS(require('m'))
//	import { a, b as c } from 'm' const { a, b: c } = require('m')
//	import 'm'                   require('m')
//	export const|let|var|function|class NAME   the declaration, and a getter
//	export default EXPR          exports.default = EXPR
//	export { a, b as c }         getters
//	export * from 'm', export { a } from 'm'   copies or getters
//	import.meta                  { url, filename, dirname, resolve }
//	import(x)                    a promise of the namespace of require(x)
//
// Exports are getters on exports, so they are live bindings, as in ES
// modules. A module with top-level await runs as an async function. Lines
// are kept (replacements are padded with the newlines they replace) so
// that error positions stay right. Not covered: live bindings of imports
// (they are copies), import attributes other than type json, and exports
// a declaration list declares past its first name.

// nodeESM is a rewritten module.
type nodeESM struct {
	body     string // the source, its declarations rewritten
	prologue string // goes before body on line 1
	async    bool   // top-level await: wrap in an async function
}

var (
	esmImportSide    = regexp.MustCompile(`^import\s*(?:"([^"\n]*)"|'([^'\n]*)')\s*(?:(?:with|assert)\s*\{[^}]*\})?\s*;?`)
	esmImportFrom    = regexp.MustCompile(`^import\s+((?:[\w$]+\s*(?:,\s*)?)?(?:\*\s*as\s+[\w$]+|\{[^}]*\})?)\s*from\s*(?:"([^"\n]*)"|'([^'\n]*)')\s*(?:(?:with|assert)\s*\{[^}]*\})?\s*;?`)
	esmExportFrom    = regexp.MustCompile(`^export\s*(\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*(?:"([^"\n]*)"|'([^'\n]*)')\s*(?:(?:with|assert)\s*\{[^}]*\})?\s*;?`)
	esmExportList    = regexp.MustCompile(`^export\s*\{([^}]*)\}\s*;?`)
	esmExportDefault = regexp.MustCompile(`^export\s+default\s+(?:((?:async\s+)?function\b\s*\*?\s*([\w$]+)\s*\()|(class\s+([\w$]+)[\s{]))?`)
	esmExportDecl    = regexp.MustCompile(`^export\s+(?:(const|let|var)\s+|((?:async\s+)?function\b\s*\*?\s*([\w$]+))|(class\s+([\w$]+)))`)
	esmIdent         = regexp.MustCompile(`^[\w$]+$`)
)

// esmEdit replaces src[start:end].
type esmEdit struct {
	start, end int
	text       string
}

// nodeToCJS rewrites an ES module's src, or reports false when it has
// nothing to rewrite.
func nodeToCJS(src string) (nodeESM, bool) {
	code := esmScan(src)
	var edits []esmEdit
	var getters []string // exported name → local expression
	esmSyntax := false
	n := 0
	modVar := func() string { n++; return fmt.Sprintf("__esm%d", n) }
	spec := func(m []string, i int) string {
		if m[i] != "" {
			return m[i]
		}
		return m[i+1]
	}
	addGetter := func(exported, local string) {
		getters = append(getters, fmt.Sprintf("Object.defineProperty(exports, %q, {enumerable: true, get: function () { return %s; }});", exported, local))
	}
	uses := map[string]bool{}
	tla := false
	for _, tok := range code.words {
		pos, word := tok.pos, tok.word
		rest := src[pos:]
		switch word {
		case "await":
			if tok.braces == 0 {
				tla = true
			}
			continue
		case "import", "export":
		default:
			continue
		}
		if pos > 0 && src[pos-1] == '.' {
			continue
		}
		after := strings.TrimLeft(rest[len(word):], " \t")
		if word == "import" && strings.HasPrefix(after, "(") {
			edits = append(edits, esmEdit{pos, pos + len(word), "__esmImport"})
			uses["import"] = true
			continue
		}
		if word == "import" && strings.HasPrefix(after, ".") {
			if m := regexp.MustCompile(`^import\s*\.\s*meta\b`).FindString(rest); m != "" {
				edits = append(edits, esmEdit{pos, pos + len(m), "__esmMeta"})
				uses["meta"] = true
			}
			continue
		}
		if tok.depth != 0 || !tok.stmtStart {
			continue
		}
		if word == "import" {
			if m := esmImportSide.FindStringSubmatch(rest); m != nil {
				edits = append(edits, esmEdit{pos, pos + len(m[0]), fmt.Sprintf("require(%q);", spec(m, 1))})
				esmSyntax = true
				continue
			}
			m := esmImportFrom.FindStringSubmatch(rest)
			if m == nil {
				continue
			}
			clause := strings.TrimSpace(m[1])
			from := spec(m, 2)
			v := modVar()
			var b strings.Builder
			fmt.Fprintf(&b, "const %s = require(%q);", v, from)
			if i := strings.IndexAny(clause, "{*"); i != 0 {
				def := clause
				if i > 0 {
					def = clause[:i]
				}
				def = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(def), ","))
				if def != "" {
					fmt.Fprintf(&b, " const %s = __esmDefault(%s);", def, v)
					uses["default"] = true
				}
				if i > 0 {
					clause = clause[i:]
				} else {
					clause = ""
				}
			}
			switch {
			case strings.HasPrefix(clause, "*"):
				ns := strings.TrimSpace(clause[strings.Index(clause, "as")+2:])
				fmt.Fprintf(&b, " const %s = __esmNS(%s);", ns, v)
				uses["ns"] = true
			case strings.HasPrefix(clause, "{"):
				var parts []string
				for _, it := range strings.Split(strings.Trim(clause, "{} \n\t"), ",") {
					it = strings.TrimSpace(it)
					if it == "" || strings.HasPrefix(it, "type ") {
						continue
					}
					name, alias, ok := strings.Cut(it, " as ")
					name, alias = strings.TrimSpace(name), strings.TrimSpace(alias)
					if !ok {
						alias = name
					}
					if name == "default" {
						fmt.Fprintf(&b, " const %s = __esmDefault(%s);", alias, v)
						uses["default"] = true
						continue
					}
					if strings.HasPrefix(name, "'") || strings.HasPrefix(name, `"`) {
						parts = append(parts, name+": "+alias)
					} else if alias == name {
						parts = append(parts, name)
					} else {
						parts = append(parts, name+": "+alias)
					}
				}
				if len(parts) > 0 {
					fmt.Fprintf(&b, " const { %s } = %s;", strings.Join(parts, ", "), v)
				}
			}
			edits = append(edits, esmEdit{pos, pos + len(m[0]), b.String()})
			esmSyntax = true
			continue
		}
		// export
		if m := esmExportFrom.FindStringSubmatch(rest); m != nil {
			what := strings.TrimSpace(m[1])
			v := modVar()
			var b strings.Builder
			fmt.Fprintf(&b, "const %s = require(%q);", v, spec(m, 2))
			if strings.HasPrefix(what, "*") {
				if i := strings.Index(what, "as"); i >= 0 {
					addGetter(strings.TrimSpace(what[i+2:]), "__esmNS("+v+")")
					uses["ns"] = true
				} else {
					fmt.Fprintf(&b, " __esmStar(exports, %s);", v)
					uses["star"] = true
				}
			} else {
				for _, it := range strings.Split(strings.Trim(what, "{} \n\t"), ",") {
					it = strings.TrimSpace(it)
					if it == "" {
						continue
					}
					name, alias, ok := strings.Cut(it, " as ")
					name, alias = strings.TrimSpace(name), strings.TrimSpace(alias)
					if !ok {
						alias = name
					}
					if name == "default" {
						addGetter(alias, "__esmDefault("+v+")")
						uses["default"] = true
					} else {
						addGetter(alias, v+"["+fmt.Sprintf("%q", name)+"]")
					}
				}
			}
			edits = append(edits, esmEdit{pos, pos + len(m[0]), b.String()})
			esmSyntax = true
			continue
		}
		if m := esmExportList.FindStringSubmatch(rest); m != nil {
			for _, it := range strings.Split(m[1], ",") {
				it = strings.TrimSpace(it)
				if it == "" {
					continue
				}
				name, alias, ok := strings.Cut(it, " as ")
				name, alias = strings.TrimSpace(name), strings.TrimSpace(alias)
				if !ok {
					alias = name
				}
				addGetter(strings.Trim(alias, `'"`), name)
			}
			edits = append(edits, esmEdit{pos, pos + len(m[0]), ""})
			esmSyntax = true
			continue
		}
		if m := esmExportDefault.FindStringSubmatchIndex(rest); m != nil {
			switch {
			case m[4] >= 0: // export default function name(
				addGetter("default", rest[m[4]:m[5]])
				edits = append(edits, esmEdit{pos, pos + m[2], ""})
			case m[8] >= 0: // export default class Name
				addGetter("default", rest[m[8]:m[9]])
				edits = append(edits, esmEdit{pos, pos + m[6], ""})
			default:
				edits = append(edits, esmEdit{pos, pos + m[1], "exports.default = "})
			}
			esmSyntax = true
			continue
		}
		if m := esmExportDecl.FindStringSubmatchIndex(rest); m != nil {
			declStart := m[2]
			if declStart < 0 {
				declStart = m[4]
			}
			if declStart < 0 {
				declStart = m[8]
			}
			switch {
			case m[2] >= 0: // const|let|var
				for _, d := range esmDeclarators(rest[m[1]:]) {
					for _, name := range esmDeclNames(d) {
						addGetter(name, name)
					}
				}
			case m[6] >= 0:
				addGetter(rest[m[6]:m[7]], rest[m[6]:m[7]])
			case m[10] >= 0:
				addGetter(rest[m[10]:m[11]], rest[m[10]:m[11]])
			}
			edits = append(edits, esmEdit{pos, pos + declStart, ""})
			esmSyntax = true
			continue
		}
	}
	if len(edits) == 0 && !tla {
		return nodeESM{}, false
	}
	var body strings.Builder
	last := 0
	for _, e := range edits {
		if e.start < last {
			continue
		}
		body.WriteString(src[last:e.start])
		body.WriteString(e.text)
		body.WriteString(strings.Repeat("\n", strings.Count(src[e.start:e.end], "\n")))
		last = e.end
	}
	body.WriteString(src[last:])

	var pro strings.Builder
	if esmSyntax {
		pro.WriteString("'use strict'; Object.defineProperty(exports, '__esModule', {value: true}); ")
	}
	for _, g := range getters {
		pro.WriteString(g + " ")
	}
	if uses["default"] || uses["import"] {
		pro.WriteString("function __esmDefault(m) { return m && m.__esModule ? m.default : m; } ")
	}
	if uses["ns"] || uses["import"] {
		pro.WriteString("function __esmNS(m) { if (m && m.__esModule) return m; var ns = {default: m}; if (m !== null && (typeof m === 'object' || typeof m === 'function')) Object.keys(m).forEach(function (k) { if (k !== 'default') ns[k] = m[k]; }); return ns; } ")
	}
	if uses["star"] {
		pro.WriteString("function __esmStar(e, m) { Object.keys(m).forEach(function (k) { if (k !== 'default' && !Object.prototype.hasOwnProperty.call(e, k)) Object.defineProperty(e, k, {enumerable: true, get: function () { return m[k]; }}); }); } ")
	}
	if uses["import"] {
		pro.WriteString("function __esmImport(s) { return Promise.resolve().then(function () { return __esmNS(require(String(s))); }); } ")
	}
	if uses["meta"] {
		pro.WriteString("var __esmMeta = {url: require('url').pathToFileURL(__filename).href, filename: __filename, dirname: __dirname, resolve: function (s) { return require('url').pathToFileURL(require.resolve(s)).href; }}; ")
	}
	return nodeESM{body: body.String(), prologue: pro.String(), async: tla}, true
}

// esmDeclarators splits the declarators of a declaration (after "const")
// up to its end: a ";" or a line end that does not continue it.
func esmDeclarators(s string) []string {
	var out []string
	depth := 0
	start := 0
	var last byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\'', '"', '\x60':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			i = j
			last = c
			continue
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		case ';':
			if depth == 0 {
				return append(out, s[start:i])
			}
		case '\n':
			if depth == 0 && last != ',' && last != '=' && i > start && strings.TrimSpace(s[start:i]) != "" {
				return append(out, s[start:i])
			}
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			last = c
		}
	}
	return append(out, s[start:])
}

// esmDeclNames lists the names a "const|let|var" declaration binds (its
// first declarator; a destructuring pattern's names).
func esmDeclNames(s string) []string {
	s = strings.TrimLeft(s, " \t\n")
	if s == "" {
		return nil
	}
	if s[0] != '{' && s[0] != '[' {
		end := strings.IndexFunc(s, func(r rune) bool {
			return !(r == '_' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127)
		})
		if end < 0 {
			end = len(s)
		}
		if end == 0 {
			return nil
		}
		return []string{s[:end]}
	}
	// The pattern up to its matching bracket.
	depth := 0
	end := -1
	for i := 0; i < len(s) && end < 0; i++ {
		switch s[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				end = i
			}
		}
	}
	if end < 0 {
		return nil
	}
	var names []string
	var walk func(p string)
	walk = func(p string) {
		p = strings.TrimSpace(p)
		if len(p) >= 2 && (p[0] == '{' || p[0] == '[') {
			inner := p[1 : len(p)-1]
			depth := 0
			start := 0
			for i := 0; i <= len(inner); i++ {
				if i == len(inner) || inner[i] == ',' && depth == 0 {
					walk(inner[start:i])
					start = i + 1
					continue
				}
				switch inner[i] {
				case '{', '[', '(':
					depth++
				case '}', ']', ')':
					depth--
				}
			}
			return
		}
		if p == "" {
			return
		}
		if i := strings.IndexByte(p, '='); i >= 0 {
			p = strings.TrimSpace(p[:i])
		}
		if i := strings.IndexByte(p, ':'); i >= 0 {
			walk(p[i+1:])
			return
		}
		p = strings.TrimPrefix(p, "...")
		if esmIdent.MatchString(p) {
			names = append(names, p)
		}
	}
	walk(s[:end+1])
	return names
}

// esmWord is a word of code (not in a string, comment, regular
// expression or template text).
type esmWord struct {
	pos       int
	word      string
	depth     int  // brackets open around it
	braces    int  // braces open around it
	stmtStart bool // first on its line or after ; or }
}

type esmScanResult struct{ words []esmWord }

// esmScan finds the words of src's code that matter to nodeToCJS:
// import, export, await.
func esmScan(src string) esmScanResult {
	var res esmScanResult
	depth, braces := 0, 0
	var tmpl []int // depths at which template substitutions opened
	var prevSig byte
	prevWord := ""
	lineStart := true
	i := 0
	regexAllowed := func() bool {
		switch prevWord {
		case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await":
			return true
		}
		if prevWord != "" {
			return false
		}
		return prevSig == 0 || strings.IndexByte("(,=:[!&|?{};+-*%<>~^", prevSig) >= 0
	}
	scanTemplate := func() {
		// In template text, after "`" or "}": up to "`" or "${".
		for i < len(src) {
			switch src[i] {
			case '\\':
				i += 2
				continue
			case '`':
				i++
				prevSig, prevWord = '`', ""
				return
			case '$':
				if i+1 < len(src) && src[i+1] == '{' {
					i += 2
					tmpl = append(tmpl, depth)
					depth++
					braces++
					prevSig, prevWord = '{', ""
					return
				}
			}
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				i = len(src)
			} else {
				i += end + 4
			}
			continue
		case c == '\'' || c == '"':
			i++
			for i < len(src) && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			i++
			prevSig, prevWord, lineStart = c, "", false
			continue
		case c == '`':
			i++
			scanTemplate()
			lineStart = false
			continue
		case c == '/' && regexAllowed():
			i++
			inClass := false
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' {
					i += 2
					continue
				}
				if src[i] == '[' {
					inClass = true
				} else if src[i] == ']' {
					inClass = false
				} else if src[i] == '/' && !inClass {
					break
				}
				i++
			}
			i++
			for i < len(src) && (src[i] >= 'a' && src[i] <= 'z') {
				i++
			}
			prevSig, prevWord, lineStart = '/', "", false
			continue
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 || c >= '0' && c <= '9':
			start := i
			for i < len(src) && (src[i] == '_' || src[i] == '$' || src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z' || src[i] >= 0x80 || src[i] >= '0' && src[i] <= '9') {
				i++
			}
			w := src[start:i]
			if w == "import" || w == "export" || w == "await" {
				res.words = append(res.words, esmWord{pos: start, word: w, depth: depth, braces: braces,
					stmtStart: lineStart || prevSig == 0 || prevSig == ';' || prevSig == '}'})
			}
			prevSig, prevWord, lineStart = w[len(w)-1], w, false
			if w[0] >= '0' && w[0] <= '9' {
				prevWord = ""
			}
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
			if c == '{' {
				braces++
			}
		case c == ')' || c == ']' || c == '}':
			depth--
			if c == '}' {
				braces--
			}
			if c == '}' && len(tmpl) > 0 && tmpl[len(tmpl)-1] == depth {
				tmpl = tmpl[:len(tmpl)-1]
				i++
				scanTemplate()
				lineStart = false
				continue
			}
		}
		prevSig, prevWord, lineStart = c, "", false
		i++
	}
	return res
}

// nodeAsyncWrapperHead is the module wrapper of a module with top-level
// await.
const nodeAsyncWrapperHead = "(async function (exports, require, module, __filename, __dirname) { "

// compileModule compiles a module's source into its wrapper function: as
// CommonJS, or rewritten (nodeToCJS) when it is a .mjs file or does not
// parse as CommonJS but does once rewritten. col1 is how far line 1 moved.
func (r *nodeRT) compileModule(name, src string) (prg *goja.Program, col1 int, err error) {
	if strings.HasPrefix(src, "#!") {
		src = "//" + src[2:]
	}
	if !strings.HasSuffix(name, ".mjs") {
		prg, err = r.compile(name, src, true)
		if err == nil {
			return prg, len(nodeWrapperHead), nil
		}
	}
	esm, ok := nodeToCJS(src)
	if !ok {
		prg, err = r.compile(name, src, true)
		return prg, len(nodeWrapperHead), err
	}
	head := nodeWrapperHead
	if esm.async {
		head = nodeAsyncWrapperHead
	}
	col1 = len(head) + len(esm.prologue)
	r.sources[name] = &nodeSource{text: src, col1: col1}
	prg, err2 := nodeParse(name, head+esm.prologue+esm.body+nodeWrapperTail)
	if err2 != nil && err != nil {
		// Not a module either: the script's own error tells more.
		r.sources[name] = &nodeSource{text: src, col1: len(nodeWrapperHead)}
		return nil, len(nodeWrapperHead), err
	}
	return prg, col1, err2
}
