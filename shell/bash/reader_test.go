package bash

import "testing"

// Aliases are expanded as each line is read (outputs from bash 5.2).
func TestAliasAtReadTime(t *testing.T) {
	for _, tc := range []struct {
		name, script, out, stderr string
		code                      int
	}{
		{"function body keeps the aliases of its definition",
			"shopt -s expand_aliases\nf() { e hi; }\nalias e=echo\ng() { e ho; }\ng; f\n",
			"ho\n", "environment: line 2: e: command not found\n", 127},
		{"eval reads line by line",
			"shopt -s expand_aliases\neval 'alias x=echo; x same-line 2>/dev/null\nx next-line'\n",
			"next-line\n", "", 0},
		{"here-document after the defining line",
			"shopt -s expand_aliases\ncat <<E; alias z=echo\nz in body\nE\nz after\n",
			"z in body\nafter\n", "", 0},
		{"trailing blank chains across a continued line",
			"shopt -s expand_aliases\nalias e_='echo ' one='ONE '\ne_ one \\\n one\n",
			"ONE ONE\n", "", 0},
		{"alias opening a loop",
			"shopt -s expand_aliases\nalias e_='for i in 1 2; do echo '\ne_ $i; done\n",
			"1\n2\n", "", 0},
		{"no alias without expand_aliases",
			"alias e=echo\ne x\n",
			"", "bash: line 2: e: command not found\n", 127},
		{"self-reference stops",
			"shopt -s expand_aliases\nalias echo='echo x '\necho echo\n",
			"x echo x\n", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := runScript(t, tc.script)
			if out != tc.out || stderr != tc.stderr || code != tc.code {
				t.Errorf("got (%q, %q, %d), want (%q, %q, %d)", out, stderr, code, tc.out, tc.stderr, tc.code)
			}
		})
	}
}

// "((" that does not close with "))" is two subshells (outputs from bash 5.2).
func TestDoubleParenAsSubshells(t *testing.T) {
	for _, tc := range []struct{ name, script, out string }{
		{"command", "((echo a) ; (echo b))\n", "a\nb\n"},
		{"substitution", "x=$((echo a) )\necho \"[$x]\"\n", "[a]\n"},
		{"arithmetic stays", "((x = 2 + 3)); echo $x\n", "5\n"},
		{"nested in backquotes", "x=`((echo a) || echo b) 2>/dev/null`; echo $x\n", "a\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := runScript(t, tc.script)
			if out != tc.out || stderr != "" || code != 0 {
				t.Errorf("got (%q, %q, %d), want (%q, \"\", 0)", out, stderr, code, tc.out)
			}
		})
	}
}

// mksh's ${ cmd;} is a bad substitution in bash 5.2, when it runs
// (outputs from bash 5.2 reading a script file).
func TestKshSubstIsBadSubstitution(t *testing.T) {
	out, stderr, code := runScript(t, "x=${ echo hi;}\necho \"[$x]\"\ny=${ echo a }\necho \"[$y]\" ${myfunc;}\necho end\n")
	want := "bash: line 1: ${ echo hi;}: bad substitution\nbash: line 3: ${ echo a }: bad substitution\nbash: line 4: ${myfunc;}: bad substitution\n"
	if out != "[]\nend\n" || stderr != want || code != 0 {
		t.Errorf("got (%q, %q, %d)", out, stderr, code)
	}
}

// >(cmd) reads what the statement wrote, when it ends (outputs from bash 5.2).
func TestProcSubstOut(t *testing.T) {
	for _, tc := range []struct{ name, script, out string }{
		{"stdout", "{ echo a; echo b; } > >(upper)\n", "A\nB\n"},
		{"stderr of a stage", "f() { echo o; echo e >&2; }\nf 2> >(upper) | cat\n", "o\nE\n"},
		{"status is the command's", "true > >(cat); echo $?\n", "0\n"},
		{"<(<file)", "echo hi > f\ncat < <(<f)\n", "hi\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := runScript(t, tc.script)
			if out != tc.out || stderr != "" || code != 0 {
				t.Errorf("got (%q, %q, %d), want (%q, \"\", 0)", out, stderr, code, tc.out)
			}
		})
	}
}

// [[ ! a OP b ]] negates a only, and set -x traces each test as bash
// 5.2 does.
func TestCondNotAndTrace(t *testing.T) {
	script := "[[ ! -n x || -n x ]]; echo $?\n[[ ! ( -n x || -n x ) ]]; echo $?\n" +
		"set -x\nx='a b'\n[[ $x == \"a b\" && ! -z '' ]]\n[[ ! ! -n $x ]]\n"
	out, stderr, code := runScript(t, script)
	want := "+ x='a b'\n+ [[ a b == \\a\\ \\b ]]\n+ [[ ! -z '' ]]\n+ [[ -n a b ]]\n"
	if out != "0\n1\n" || stderr != want || code != 0 {
		t.Errorf("got (%q, %q, %d), want (\"0\\n1\\n\", %q, 0)", out, stderr, code, want)
	}
}

// set -x of array assignments and declaration builtins (bash 5.2's
// output).
func TestXtraceDeclarations(t *testing.T) {
	_, stderr, _ := runScript(t, "set -x\na=(1 \"x y\")\ndeclare a+=(3)\nreadonly r=3\ndeclare -A A=([k]=v)\n")
	want := "+ a=(1 \"x y\")\n+ a+=('3')\n+ declare a\n+ readonly r=3\n+ r=3\n+ A=(['k']='v')\n+ declare -A A\n"
	if stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

// let whose arguments mvdan's parser does not read as arithmetic runs as
// the builtin on words (bash 5.2's output); the lines before it run.
func TestLetAsWords(t *testing.T) {
	out, stderr, code := runScript(t, "let x=1\nlet y=x*3  # a comment; more\necho $x $y\n")
	if out != "1 3\n" || stderr != "" || code != 0 {
		t.Errorf("got (%q, %q, %d)", out, stderr, code)
	}
}

// An array literal expands its values first, then assigns element by
// element, each subscript seeing the elements before it; [k]=v is not
// brace-expanded (bash 5.2's output).
func TestArrayLiteralOrder(t *testing.T) {
	out, _, _ := runScript(t, "i=1\na=([100+i++]=$((i++)) [200+i++]=$((i++)))\necho ${!a[@]} ${a[@]}\n"+
		"b=([0]=1+2+3 [b[0]]=10)\necho ${!b[@]}\ndeclare -A A=([k]=x{a,b})\necho ${A[k]}\n")
	if want := "103 204 1 2\n0 6\nx{a,b}\n"; out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
}

// [k]+=v in an array literal appends to the element (bash 5.2's output).
func TestArrayLiteralAppendElem(t *testing.T) {
	out, stderr, _ := runScript(t, "a=([1]=x [1]+=y)\na+=([1]+=z)\necho ${a[1]}\n"+
		"declare -A A=([k]=1)\nA=([k]=2 [k]+=3)\nA+=([k]+=4 [k]+=5)\necho ${A[k]}\n")
	if out != "xyz\n1345\n" || stderr != "" {
		t.Errorf("got (%q, %q)", out, stderr)
	}
}

// A PS4 with an unterminated ${ is a bad substitution once per traced
// line, then used as written (bash 5.2's output).
func TestXtraceBadPS4(t *testing.T) {
	_, stderr, _ := runScript(t, "PS4='+${x'\nset -x\necho one >/dev/null\n")
	if want := "bash: line 3: +${x: bad substitution\n+${xecho one\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

// Forms mvdan's parser refuses that bash reads (outputs of bash 5.2 -c,
// as the Oils spec tests record them): a short bad ${...}, let's x=( 1 ) word, and a
// here-document delimiter "$@" read to the end of the input; empty
// arithmetic (( )) and $(( )) (0).
func TestReaderRetries(t *testing.T) {
	script := "(( )); echo $?; (()); echo $? $(( )) $(())\nx=${a&}\necho \"[$x] $?\"\nlet x=( 1 ) y=( x + 2 )\necho $x $y\nf() {\n  cat <<\"$@\"\nhi\n}\n"
	out, stderr, code := runScript(t, script)
	want := "bash: line 2: ${a&}: bad substitution\n" +
		"bash: line 9: warning: here-document at line 7 delimited by end-of-file (wanted `$@')\n" +
		"bash: -c: line 10: syntax error: unexpected end of file\n"
	if out != "1\n1 0 0\n[] 1\n1 3\n" || stderr != want || code != 2 {
		t.Errorf("got (%q, %q, %d)", out, stderr, code)
	}
}

// ((...)) and $((...)) closed with "))" whose text does not parse are
// arithmetic that fails when it runs, at the line ((...)) ends on
// (outputs of bash 5.2 reading a script file).
func TestArithSyntaxAtRunTime(t *testing.T) {
	script := "(( echo 1 ))\necho $?\n((\n x = 1 +\n))\necho $? $(( 2 3 ))\necho after\n"
	out, stderr, code := runScript(t, script)
	want := "bash: line 1: ((: echo 1 : syntax error in expression (error token is \"1 \")\n" +
		"bash: line 5: ((: \n x = 1 +\n: syntax error: operand expected (error token is \"+\n\")\n" +
		"bash: line 6: 2 3 : syntax error in expression (error token is \"3 \")\n"
	if out != "1\nafter\n" || stderr != want || code != 0 {
		t.Errorf("got (%q, %q, %d), want (%q, %q, 0)", out, stderr, code, "1\nafter\n", want)
	}
}

// declare's "cannot convert" error of an assignment names the eval that
// runs it (outputs of bash 5.2 reading a script file).
func TestConvertErrorNamesEval(t *testing.T) {
	script := "declare -a a=(1)\neval \"declare -A a=([x]=1)\"; echo $?\nf() { declare -A a=([x]=1); echo in; }\neval f\ndeclare -A a=([x]=1)\necho end\n"
	out, stderr, code := runScript(t, script)
	want := "bash: line 2: eval: a: cannot convert indexed to associative array\nbash: line 5: a: cannot convert indexed to associative array\n"
	if out != "1\nin\nend\n" || stderr != want || code != 0 {
		t.Errorf("got (%q, %q, %d), want (\"1\\nin\\nend\\n\", %q, 0)", out, stderr, code, want)
	}
}

// a[i]=v before a command is reported and the command runs; an index
// that is not arithmetic fails when the assignment runs, which ends bash
// -c (outputs of bash 5.2 -c).
func TestIndexedAssignForms(t *testing.T) {
	script := "a=(0 1 2)\na[0 + 1]=x echo hi\necho $?\na[1 + 1]+=y true; declare -p a\na[5 # 1]=\necho next\n"
	out, stderr, code := runScript(t, script)
	wantOut := "hi\n0\ndeclare -a a=([0]=\"0\" [1]=\"1\" [2]=\"2\")\n"
	want := "bash: line 2: `a[0 + 1]': not a valid identifier\nbash: line 4: `a[1 + 1]': not a valid identifier\n" +
		"bash: line 5: 5 # 1: syntax error: invalid arithmetic operator (error token is \"# 1\")\n"
	if out != wantOut || stderr != want || code != 1 {
		t.Errorf("got (%q, %q, %d), want (%q, %q, 1)", out, stderr, code, wantOut, want)
	}
}

// A declaration builtin's a[i]=v with blanks in i is words split at the
// blanks (outputs of bash 5.2 -c).
func TestDeclIndexBlanks(t *testing.T) {
	script := "declare a[ a[2]=3 ]=Y; declare -p a; declare b[0 + 1]+=4 x=1; declare -p x; declare -p b\n"
	out, stderr, code := runScript(t, script)
	wantOut := "declare -a a=([2]=\"3\")\ndeclare -- x=\"1\"\n"
	want := "bash: line 1: declare: `a[': not a valid identifier\nbash: line 1: declare: `]=Y': not a valid identifier\n" +
		"bash: line 1: declare: `b[0': not a valid identifier\nbash: line 1: declare: `+': not a valid identifier\n" +
		"bash: line 1: declare: `1]+=4': not a valid identifier\nbash: line 1: declare: b: not found\n"
	if out != wantOut || stderr != want || code != 1 {
		t.Errorf("got (%q, %q, %d), want (%q, %q, 1)", out, stderr, code, wantOut, want)
	}
}
