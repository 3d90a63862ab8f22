package bash

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/shell/command"
)

// runScript runs script over a memory filesystem with /home/user, with
// cat and tr as the only external commands.
func runScript(t testing.TB, script string) (string, string, int) {
	t.Helper()
	fsys := afero.NewMemMapFs()
	_ = fsys.MkdirAll("/home/user", 0o755)
	var out, errb strings.Builder
	code, err := Run(context.Background(), script, Options{
		FS: fsys, Dir: "/home/user", Stdout: &out, Stderr: &errb,
		Env:  map[string]string{"HOME": "/home/user"},
		Exec: testExec,
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// testExec is a minimal command lookup: cat and tr a-z A-Z.
func testExec(ctx context.Context, c *command.Call, args []string) error {
	switch args[0] {
	case "cat":
		data, err := readAll(c.Stdin)
		if err != nil {
			return err
		}
		_, err = c.Stdout.Write(data)
		return err
	case "upper":
		data, err := readAll(c.Stdin)
		if err != nil {
			return err
		}
		_, err = c.Stdout.Write([]byte(strings.ToUpper(string(data))))
		return err
	case "boom":
		panic("kaboom")
	}
	return &notFound{args[0]}
}

func readAll(r interface{ Read([]byte) (int, error) }) ([]byte, error) {
	var b []byte
	buf := make([]byte, 512)
	for {
		n, err := r.Read(buf)
		b = append(b, buf[:n]...)
		if err != nil {
			if err.Error() == "EOF" {
				return b, nil
			}
			return b, err
		}
	}
}

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name, script, out, stderr string
		code                      int
	}{
		{"echo", "echo hi; echo -n a; echo -e 'b\\tc'", "hi\nab\tc\n", "", 0},
		{"subshells share variables copied on write (a variable read and changed around a $(...))", "a=(1 2); a+=( $(echo x) \"${a[@]}\" ); echo \"${a[@]}\"\nf() { local b=(p); b+=( $(echo y) \"${b[@]}\" ); echo \"${b[@]}\"; }; f\ndeclare -A m=([k]=v); m[$(echo j)]=${m[k]}; declare -p m\nc=(1); c=( [$(echo 0)]=z [1]=${c[0]} ); echo \"${c[@]}\"\nx=1; y=$(x=2; echo $x); echo $x $y; (x=3; a[5]=q); echo $x ${#a[@]}\necho | { x=4; read; }; echo $x\ng() { local l=in; echo $(l=sub; echo $l) $l; }; g\nn=0; for i in 1 2 3; do n=$(( $(echo $n) + i )); done; echo $n\nz=1; { : ; echo bg $z; } & z=2; wait; echo $z\n", "1 2 x 1 2\np y p\ndeclare -A m=([k]=\"v\" [j]=\"v\" )\nz 1\n1 2\n1 5\n1\nsub in\n6\nbg 1\n2\n", "", 0},
		{"declare -p quotes control characters", `x=$'a\nb'; a=($'c\td' e); declare -p x a`, "declare -- x=$'a\\nb'\ndeclare -a a=([0]=$'c\\td' [1]=\"e\")\n", "", 0},
		{"FUNCNAME is the call stack", `f() { g; }; g() { echo "${FUNCNAME[@]}"; }; f; echo "[${FUNCNAME[*]}]"; declare -p FUNCNAME`, "g f\n[]\ndeclare -a FUNCNAME\n", "", 0},
		{"indirection through an element and an array's values", `v1=hello v2=world; a=(v1 v2); echo "${!a[1]}"; b=(v1); echo "${!b[@]:1}" "${!b[@]}"; (echo "${!nope[@]-x}"); echo $?`, "world\nello 0\n1\n", "bash: line 1: nope[@]: invalid indirect expansion\n", 0},
		{"declare -p and local show a nameref, not its target", `x=1; declare -n r=x; declare -p r; f() { local -n q=x; local; }; f`, "declare -n r=\"x\"\ndeclare -n q=\"x\"\n", "", 0},
		{"default quoted whole", `d='a b'; for w in ${x:-"$d"}; do echo "[$w]"; done`, "[a b]\n", "", 0},
		{"unused default not evaluated", `echo ${x-$(echo no >&2)}ok; x=1; echo ${x:-$(exit 3)}`, "ok\n1\n", "no\n", 0},
		{"empty array default", `a=(); echo "${a[@]-x}"`, "x\n", "", 0},
		{"ifs non-whitespace", `IFS=_; s=_a_b_; set -- $s; echo $#`, "3\n", "", 0},
		{"dollar star ifs", `set -- a b; IFS=:; echo "$*"`, "a:b\n", "", 0},
		{"assoc", `declare -A m; m[k]=v; m[a+1]=w; echo ${#m[@]} ${m[a+1]}; declare -p m`, "2 w\ndeclare -A m=([a+1]=\"w\" [k]=\"v\" )\n", "", 0},
		{"sparse", `a=([3]=x [7]=y); echo ${!a[@]} ${#a[@]}; a+=(z); echo ${!a[@]}`, "3 7 2\n3 7 8\n", "", 0},
		{"slice", `a=(1 2 3 4); echo ${a[@]:1:2}; s=hello; echo ${s:1:3} ${s: -2}`, "2 3\nell lo\n", "", 0},
		{"pattern ops", `f=dir/file.tar.gz; echo ${f##*/} ${f%%.*} ${f/tar/zip} ${f^^}`, "file.tar.gz dir/file dir/file.zip.gz DIR/FILE.TAR.GZ\n", "", 0},
		{"arith", `echo $((2**10)) $((7/2)) $((-7%3)) $((1<<4)); x=5; ((x++)); echo $x`, "1024 3 -1 16\n6\n", "", 0},
		{"arith error", "echo $((1/0)); echo skipped\necho next", "next\n", "bash: line 1: 1/0: division by 0 (error token is \"0\")\n", 0},
		{"arith from text", `x='1 + 2'; echo $(( $x * 3 )) $(( "$x" * 3 )) $((x*3))`, "7 7 9\n", "", 0},
		{"arith single quotes", "echo $(( '1' + 2 ))\necho next", "next\n", "bash: line 1: '1' + 2 : syntax error: operand expected (error token is \"'1' + 2 \")\n", 0},
		{"arith division token", "true; echo $((1/0 + 2))", "", "bash: line 1: 1/0 + 2: division by 0 (error token is \"0 + 2\")\n", 1},
		{"arith bases", "echo $(( 10#12 )) $(( 64#@_ )) $(( 36#Z )) $((0x)) $((2#101))", "12 4031 35 0 5\n", "", 0},
		{"arith value too great", "true; echo $((09))", "", "bash: line 1: 09: value too great for base (error token is \"09\")\n", 1},
		{"arith ternary and noeval", "echo $(( 0 && 1/0 )) $(( 1 || 1/0 )) $((0 ? 1/0 : 2))", "0 1 2\n", "", 0},
		{"arith assign does not read lhs", `x="a b"; (( x = 5 )); echo $x`, "5\n", "", 0},
		{"arith recursion", "x=x; echo $((x)); echo never", "", "bash: line 1: x: expression recursion level exceeded (error token is \"x\")\n", 1},
		{"arith command error", "((1/0)); echo $?; let 'y=2*3' z=y+1; echo $y $z", "1\n6 7\n", "bash: line 1: ((: 1/0: division by 0 (error token is \"0\")\n", 0},
		{"arith subscripts", `a=(1 2 3); i=1; echo $(( a[i+1] )) ${a[i+1]} $(( a[-1] )); (( a[i] += 5 )); echo ${a[@]}`, "3 3 3\n1 7 3\n", "", 0},
		{"arith assoc key", `declare -A A; A[k]=3; echo $(( A[k] + A['k'] ))`, "6\n", "", 0},
		{"for arith text", `for ((i = "1"; i < '3'; i++)); do echo $i; done`, "", "bash: line 1: ((: i < '3': syntax error: operand expected (error token is \"'3'\")\n", 1},
		{"printf", `printf '%5.2f|%-4s|%04d|%x|%q|%b\n' 3.14159 ab 7 255 'a b' 'x\ty'`, " 3.14|ab  |0007|ff|a\\ b|x\ty\n", "", 0},
		{"printf rounding", `printf '%.1f %.2f\n' 2.25 1.005`, "2.2 1.00\n", "", 0},
		{"printf char arg", `printf '%x\n' "'μ"`, "3bc\n", "", 0},
		{"printf reuse", `printf '%s-' a b c; echo`, "a-b-c-\n", "", 0},
		{"printf -v", `printf -v x '%03d' 5; echo $x`, "005\n", "", 0},
		{"pipeline", "echo hi | upper | cat", "HI\n", "", 0},
		{"pipestatus", "false | true; echo ${PIPESTATUS[@]}", "1 0\n", "", 0},
		{"pipefail", "set -o pipefail; false | true; echo $?", "1\n", "", 0},
		{"subshell", "x=1; (x=2; echo $x); echo $x", "2\n1\n", "", 0},
		{"function subshell return", "f() ( return 3 ); f; echo $?", "3\n", "", 0},
		{"errexit suspended", "set -e; if false; then :; fi; false || echo ok; ! true; echo end; false; echo never", "ok\nend\n", "", 1},
		{"while break", "i=0; while true; do i=$((i+1)); [ $i -ge 3 ] && break; done; echo $i", "3\n", "", 0},
		{"case", "case foo in f*) echo a;& x) echo b;; *) echo c;; esac", "a\nb\n", "", 0},
		{"here doc", "x=v\ncat <<EOF\n$x \\$x\nEOF\ncat <<'E'\n$x\nE", "v $x\n$x\n", "", 0},
		{"here string", "read -r a b <<< 'one two three'; echo $b", "two three\n", "", 0},
		{"fd redirections", "exec 3>f; echo x >&3; exec 3>&-; cat < f; echo y 1>&2 2>/dev/null", "x\n", "y\n", 0},
		{"noclobber", "set -C; echo a > f; echo b > f; echo $?; echo c >| f; cat < f", "1\nc\n", "bash: line 1: f: cannot overwrite existing file\n", 0},
		{"read ifs", "IFS=: read -r a b c <<< 'x::y'; echo \"[$a][$b][$c]\"", "[x][][y]\n", "", 0},
		{"mapfile", "printf 'a\\nb\\n' | { mapfile -t l; echo ${#l[@]} ${l[1]}; }", "2 b\n", "", 0},
		{"not found", "nosuch; echo $?", "127\n", "bash: line 1: nosuch: command not found\n", 0},
		{"unbound", "set -u; echo $nope; echo never", "", "bash: line 1: nope: unbound variable\n", 127},
		{"readonly", "readonly r=1; r=2; echo never", "", "bash: line 1: r: readonly variable\n", 1},
		{"status in assignment", "false; x=$?; echo $x $?", "1 0\n", "", 0},
		{"allexport only after set -a", "B=1; set -a; A=2; read R <<< 3; declare -p A B R", "declare -x A=\"2\"\ndeclare -- B=\"1\"\ndeclare -x R=\"3\"\n", "", 0},
		{"ulimit soft and hard", "ulimit -S -t 100; ulimit -t; ulimit -Ht; ulimit -H -t 50; echo $?; ulimit -f $((1<<32)); ulimit -f; ulimit -c 1 2; ulimit -c", "100\nunlimited\n1\n4294967296\n1\n", "bash: line 1: ulimit: cpu time: cannot modify limit: Invalid argument\n", 0},
		{"ulimit -a", "ulimit -n 64; ulimit -R -e -n -p", "real-time non-blocking time  (microseconds, -R) unlimited\nscheduling priority                 (-e) 0\nopen files                          (-n) 64\npipe size                (512 bytes, -p) 8\n", "", 0},
		{"ulimit -n 0", "(ulimit -n 0; echo x > f); echo $?; ulimit -n", "1\n1024\n", "bash: line 1: f: Too many open files\n", 0},
		{"dev full", "echo a > /dev/full; echo $?; trap 'echo t' USR1; trap -p > /dev/full; echo $?", "1\n1\n", "bash: line 1: echo: write error: No space left on device\nbash: line 1: trap: write error: No space left on device\n", 0},
		{"eval and function lines", "f() {\n echo f=$LINENO\n}\neval 'echo e=$LINENO\necho e=$LINENO; f'\ntrap 'echo x=$LINENO' EXIT", "e=5\ne=6\nf=2\nx=1\n", "", 0},
		{"xtrace case", "x=a; set -x; case $x in a) echo y;; esac", "y\n", "+ case $x in\n+ echo y\n", 0},
		{"set -eu unbound", "set -eu; echo $nope; echo never", "", "bash: line 1: nope: unbound variable\n", 1},
		{"function text", "f() { if true; then echo a; else echo b; fi; case x in x) :;; esac; echo > f & }; declare -f f", "f () \n{ \n    if true; then\n        echo a;\n    else\n        echo b;\n    fi;\n    case x in \n        x)\n            :\n        ;;\n    esac;\n    echo > f &\n}\n", "", 0},
		{"special builtin assignments", "FOO=1 :; echo [$FOO]; set -o posix; BAR=2 :; echo [$BAR]; declare -p BAR", "[]\n[2]\ndeclare -x BAR=\"2\"\n", "", 0},
		{"readonly skips the line only", "readonly r=1; r=2; echo never\necho next $?; for r in 1; do :; done; echo $?", "next 1\n1\n", "bash: line 1: r: readonly variable\nbash: line 2: r: readonly variable\n", 0},
		{"nameref checks", "x=#; typeset -n x; echo $? $x; typeset -n r='a[1]'; a=(p q); echo $r; typeset -n c1=c2 c2=c1; echo \"[$c1]\"", "1 #\nq\n[]\n", "bash: line 1: typeset: `#': invalid variable name for name reference\nbash: line 1: warning: c1: circular name reference\n", 0},
		{"dynamic declarations", `f() { local "$1"; echo "[$x][$a]"; local $1; echo "[$x][$a]"; }; f "x=y a=b"; c="z=(1 2)"; declare -a "$c"; echo ${#z[@]}`, "[y a=b][]\n[y][b]\n2\n", "", 0},
		{"unset local hides global", `f() { local x=l; unset x; echo "${x-default}"; }; x=g; f; echo $x`, "default\ng\n", "", 0},
		{"extglob alternatives expanded", "shopt -s extglob\nfor f in foo.cc foo.h foo. '_*' '__|'; do : > \"$f\"; done; ext=cc; echo foo.?($ext|h) @('_*'|__\\|) +(x|$(echo foo).h)", "foo. foo.cc foo.h _* __| foo.h\n", "", 0},
		{"extglob negation", "shopt -s extglob\n[[ --oops == --!(help|verbose) ]] && echo a; [[ --help == --!(help|verbose) ]] || echo b; [[ abc == a!(x)c ]] && echo c; case xyz in !(x*)) echo bad;; *) echo d;; esac", "a\nb\nc\nd\n", "", 0},
		{"exit trap", "trap 'echo bye' EXIT; echo hi; exit 4", "hi\nbye\n", "", 4},
		{"local and nameref", "x=g; f() { local x=l; local -n r=x; r=changed; echo $x; }; f; echo $x", "changed\ng\n", "", 0},
		{"getopts", `set -- -a -b val rest; while getopts ab: o; do echo "$o${OPTARG:+=$OPTARG}"; done; shift $((OPTIND-1)); echo $1`, "a\nb=val\nrest\n", "", 0},
		{"background", "{ echo bg; } & wait $!; echo $?", "bg\n0\n", "", 0},
		{"brace expansion", "echo {a,b}{1..3..2} x{05..07}", "a1 a3 b1 b3 x05 x06 x07\n", "", 0},
		{"glob", "touch() { for f; do : > $f; done; }; touch b.txt a.txt .h; echo *.txt; shopt -s nullglob; echo *.none end", "a.txt b.txt\nend\n", "", 0},
		{"xtrace", "set -x; echo 'a b' c", "a b c\n", "+ echo 'a b' c\n", 0},
		{"set -o and shopt -o bad names", "set -o bogus; echo $?; set +o bogus; echo $?; shopt -s -o bogus; echo $?; shopt -o bogus; echo $?", "2\n2\n0\n1\n", "bash: line 1: set: bogus: invalid option name\nbash: line 1: set: bogus: invalid option name\nbash: line 1: shopt: bogus: invalid option name\nbash: line 1: shopt: bogus: invalid option name\n", 0},
		{"cd keeps two leading slashes", "cd //; echo $PWD; pwd; cd ///; echo $PWD; cd //home/user; pwd; cd ..; pwd; pwd -P; cd /; cd -", "//\n//\n/\n//home/user\n//home\n//home\n//home\n", "", 0},
		{"cd - and cd ''", "unset OLDPWD; cd -; echo $?; cd ''; echo $? $PWD", "1\n0 /home/user\n", "bash: line 1: cd: OLDPWD not set\n", 0},
		{"kill a reaped or unknown job", "true & wait $!; kill %1; echo $?; kill %5; echo $?; kill; echo $?; kill -s; echo $?", "1\n1\n2\n1\n", "bash: line 1: kill: %1: no such job\nbash: line 1: kill: %5: no such job\nkill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\nbash: line 1: kill: -s: option requires an argument\n", 0},
		{"jobs -x", "while :; do :; done & jobs -x echo %1 %2 x > f; read p < f; [ \"$p\" = \"$$ %2 x\" ]; echo $?; jobs -x false; echo $?; jobs -lx echo; echo $?; kill %1 %3; echo $?", "0\n1\n1\n0\n", "bash: line 1: jobs: no other options allowed with `-x'\nbash: line 1: kill: %3: no such job\n", 0},
		{"unopened /dev/fd/N", "cat < /dev/fd/7; echo $?; echo x > /dev/fd/7; echo $?; exec 7>f; echo y > /dev/fd/07; echo $?; (exec 1>&-; echo z > /dev/stdout); echo $?", "1\n1\n1\n1\n", "bash: line 1: /dev/fd/7: No such file or directory\nbash: line 1: /dev/fd/7: No such file or directory\nbash: line 1: /dev/fd/07: No such file or directory\nbash: line 1: /dev/stdout: No such file or directory\n", 0},
		{"printf -v errors", "printf -v; echo $?; printf -v 1a x; echo $?; readonly r; printf -v r x; echo $?", "2\n2\n1\n", "bash: line 1: printf: -v: option requires an argument\nprintf: usage: printf [-v var] format [arguments]\nbash: line 1: printf: `1a': not a valid identifier\nbash: line 1: r: readonly variable\n", 0},
		// bash 5.2 gives a {var} the lowest free fd from 10 up: 10 in a
		// process with fds 0-2 only, as the sandbox runs a script (11
		// where the caller leaked its fd 10 into bash).
		{"{fd} starts at 10", "exec {fd}>f; echo $fd; exec {g}>f; echo $g; exec {fd}>&-; exec {h}>f; echo $h; exec {x}>&-; echo $?; x=abc; exec {x}>&-; echo $?", "10\n11\n10\n1\n0\n", "bash: line 1: x: ambiguous redirect\n", 0},
		{"disown, wait, fg, bg and cd -@ errors", "while :; do :; done & disown %1; echo $?; jobs; disown -h %9; echo $?; disown -x; echo $?; disown; echo $?; wait -p; echo $?; wait -x; echo $?; fg; echo $?; bg %1; echo $?; cd -@ .; echo $?", "0\n1\n2\n1\n2\n2\n1\n1\n2\n", "bash: line 1: disown: %9: no such job\nbash: line 1: disown: -x: invalid option\ndisown: usage: disown [-h] [-ar] [jobspec ... | pid ...]\nbash: line 1: disown: current: no such job\nbash: line 1: wait: -p: option requires an argument\nwait: usage: wait [-fn] [-p var] [id ...]\nbash: line 1: wait: -x: invalid option\nwait: usage: wait [-fn] [-p var] [id ...]\nbash: line 1: fg: no job control\nbash: line 1: bg: no job control\nbash: line 1: cd: -@: invalid option\ncd: usage: cd [-L|[-P [-e]] [-@]] [dir]\n", 0},
		{"help topics and errors", "help ZZZ; echo $?; help -x; echo $?; help 'ech*'; echo $?", "1\n2\necho: a shell builtin or keyword; see the bash manual\n0\n", "bash: line 1: help: no help topics match `ZZZ'.  Try `help help' or `man -k ZZZ' or `info ZZZ'.\nbash: line 1: help: -x: invalid option\nhelp: usage: help [-dms] [pattern ...]\n", 0},
		{"set lists the caller arrays", "set > f; while read -r l; do case $l in BASH_ARG*|BASH_LI*|BASH_SO*) echo \"$l\";; esac; done < f", "BASH_ARGC=()\nBASH_ARGV=()\nBASH_LINENO=()\nBASH_SOURCE=()\n", "", 0},
		{"ERR trap inside DEBUG trap and DEBUG inside ERR", `trap "false; echo \$LINENO e" ERR; trap "false; echo d" DEBUG; false; echo after=$?`, "1 e\nd\nd\nd\n1 e\n1 e\nd\nafter=1\n", "", 0},
		{"DEBUG before each for (( )) expression", `trap "echo D" DEBUG; for ((i=0; i<1; i++)); do :; done`, "D\nD\nD\nD\nD\n", "", 0},
		{"panic in a command", "boom; echo $?", "1\n", "boom: internal error: kaboom\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errText, code := runScript(t, tc.script)
			if out != tc.out || errText != tc.stderr || code != tc.code {
				t.Errorf("%s:\nstdout %q\nstderr %q\nstatus %d\nwant %q %q %d", tc.script, out, errText, code, tc.out, tc.stderr, tc.code)
			}
		})
	}
}

// TestRunContext: a script that does not end stops when ctx ends.
func TestRunContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	code, err := Run(ctx, "while :; do :; done", Options{FS: afero.NewMemMapFs()})
	if !errors.Is(err, context.DeadlineExceeded) || code != 124 {
		t.Errorf("got %d, %v", code, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestRunOptions: bad options are errors.
func TestRunOptions(t *testing.T) {
	if _, err := Run(context.Background(), "true", Options{}); err == nil {
		t.Error("no FS: no error")
	}
	if _, err := Run(context.Background(), "true", Options{FS: afero.NewMemMapFs(), Dir: "rel"}); err == nil {
		t.Error("relative Dir: no error")
	}
}

// TestNoHostFiles: paths are the FS's, never the host's.
func TestNoHostFiles(t *testing.T) {
	host, err := os.CreateTemp("", "bash-host-*")
	if err != nil {
		t.Fatal(err)
	}
	host.WriteString("secret")
	host.Close()
	defer os.Remove(host.Name())
	out, _, _ := runScript(t, fmt.Sprintf("read x < %q; echo \"[$x]\"; echo hi > %q; source %q", host.Name(), host.Name()+".w", host.Name()))
	if strings.Contains(out, "secret") {
		t.Errorf("read a host file: %q", out)
	}
	if _, err := os.Stat(host.Name() + ".w"); err == nil {
		os.Remove(host.Name() + ".w")
		t.Error("wrote a host file")
	}
}

// FuzzRun: no script panics the host process or hangs past its context.
func FuzzRun(f *testing.F) {
	for _, s := range []string{
		"echo ${x:-$((1+2))} ${a[@]:1} ${!b} ${c@Q}", "f() { f; }; f", "a=(1 2); a[5]=x; echo ${a[-1]}",
		"x=$'\\x00'; printf %q \"$x\"", "case $x in *) ;; esac | cat", "exec 3<&-; cat <&3", "(( x = 1 / 0 ))",
		"read -d '' -n 3 x <<< abc", "printf '%*.*d' 5 3 7", "[[ a =~ ( ]]", "echo {1..3}{a..c}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		fsys := afero.NewMemMapFs()
		_, _ = Run(ctx, script, Options{FS: fsys, Exec: testExec})
	})
}

// TestRunaway: runaway recursions end the script, not the host process.
func TestRunaway(t *testing.T) {
	for _, script := range []string{
		"f() { f; }; f; echo never",
		"x='eval \"$x\"'; eval \"$x\"; echo never",
		"echo 'source s.sh' > s.sh; source s.sh; echo never",
		"f() { echo $(f); }; f; exit 1", // each subshell ends; the script goes on
	} {
		out, errText, code := runScript(t, script)
		if strings.Contains(out, "never") || code == 0 || !strings.Contains(errText, "maximum") {
			t.Errorf("%s: %q %q %d", script, out, errText, code)
		}
	}
}

// TestKillJob: kill ends a background job; wait gives 128+signal.
func TestKillJob(t *testing.T) {
	fsys := afero.NewMemMapFs()
	var out strings.Builder
	_, err := Run(context.Background(), "spin & pid=$!; kill -TERM $pid; wait $pid; echo wait=$?", Options{
		FS: fsys, Stdout: &out,
		Exec: func(ctx context.Context, c *command.Call, args []string) error {
			<-ctx.Done() // spin: runs until its context ends
			return ctx.Err()
		},
	})
	if err != nil || out.String() != "wait=143\n" {
		t.Errorf("got %q, %v", out.String(), err)
	}
}
