package sed

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
	"github.com/spf13/afero"
)

var sedTestFiles = map[string]string{
	"in.txt":    "one\ntwo\nthree\nfour\nfive\n",
	"noeol.txt": "x\ny",
	"words.txt": "hello world\nfoo bar baz\n",
	"r.txt":     "R1\nR2\n",
	"script":    "s/one/1/\n# comment\n/three/d\n",
}

func TestSedTable(t *testing.T) {
	tests := []struct {
		name  string
		stdin string
		args  []string
		out   string
		err   string // substring of stderr ("" means empty stderr)
		code  int
	}{
		{"subst", "", []string{"s/o/0/", "in.txt"}, "0ne\ntw0\nthree\nf0ur\nfive\n", "", 0},
		{"subst global", "abab\n", []string{"s/a/X/g"}, "XbXb\n", "", 0},
		{"subst nth", "aaaa\n", []string{"s/a/X/3"}, "aaXa\n", "", 0},
		{"subst nth global", "aaaa\n", []string{"s/a/X/2g"}, "aXXX\n", "", 0},
		{"subst icase", "Hello\n", []string{"s/hello/bye/I"}, "bye\n", "", 0},
		{"subst groups", "john smith\n", []string{"s/\\(\\w*\\) \\(\\w*\\)/\\2, \\1/"}, "smith, john\n", "", 0},
		{"subst ere groups", "john smith\n", []string{"-E", "s/(\\w+) (\\w+)/\\2 \\1/"}, "smith john\n", "", 0},
		{"subst ampersand", "cat\n", []string{"s/.*/[&] \\&/"}, "[cat] &\n", "", 0},
		{"subst newline", "a,b\n", []string{"s/,/\\n/"}, "a\nb\n", "", 0},
		{"subst backslash newline", "a,b\n", []string{"s/,/\\\n/"}, "a\nb\n", "", 0},
		{"subst case", "hello world\n", []string{"s/\\w\\+/\\u&/g;s/o/\\U&/"}, "HellO World\n", "", 0},
		{"subst case L E", "ABC DEF\n", []string{"-E", "s/(\\w+) (\\w+)/\\L\\1\\E \\2/"}, "abc DEF\n", "", 0},
		{"subst delimiter", "/usr/bin\n", []string{"s|/usr|/opt|"}, "/opt/bin\n", "", 0},
		{"subst escaped delimiter", "a/b\n", []string{"s/\\//:/"}, "a:b\n", "", 0},
		{"subst print", "", []string{"-n", "s/two/2/p", "in.txt"}, "2\n", "", 0},
		{"subst empty regex", "foo foo\n", []string{"/foo/s//bar/g"}, "bar bar\n", "", 0},
		{"print line", "", []string{"-n", "3p", "in.txt"}, "three\n", "", 0},
		{"last line", "", []string{"-n", "$p", "in.txt"}, "five\n", "", 0},
		{"range", "", []string{"-n", "2,3p", "in.txt"}, "two\nthree\n", "", 0},
		{"regex range", "", []string{"-n", "/two/,/four/p", "in.txt"}, "two\nthree\nfour\n", "", 0},
		{"plus range", "", []string{"-n", "/two/,+1p", "in.txt"}, "two\nthree\n", "", 0},
		{"step", "", []string{"-n", "1~2p", "in.txt"}, "one\nthree\nfive\n", "", 0},
		{"zero address", "", []string{"0,/o/d", "in.txt"}, "two\nthree\nfour\nfive\n", "", 0},
		{"negate", "", []string{"2!d", "in.txt"}, "two\n", "", 0},
		{"custom delimiter address", "", []string{"-n", "\\,thr,p", "in.txt"}, "three\n", "", 0},
		{"block", "", []string{"-n", "/o/{s/o/0/g;p}", "in.txt"}, "0ne\ntw0\nf0ur\n", "", 0},
		{"delete", "", []string{"2,4d", "in.txt"}, "one\nfive\n", "", 0},
		{"quit", "", []string{"2q", "in.txt"}, "one\ntwo\n", "", 0},
		{"quit code", "", []string{"2q7", "in.txt"}, "one\ntwo\n", "", 7},
		{"Quit", "", []string{"2Q", "in.txt"}, "one\n", "", 0},
		{"append", "", []string{"1a added", "in.txt"}, "one\nadded\ntwo\nthree\nfour\nfive\n", "", 0},
		{"append classic", "", []string{"1a\\\n  kept\\\nsecond", "in.txt"}, "one\n  kept\nsecond\ntwo\nthree\nfour\nfive\n", "", 0},
		{"insert", "", []string{"$i before last", "in.txt"}, "one\ntwo\nthree\nfour\nbefore last\nfive\n", "", 0},
		{"change range", "", []string{"2,4c\\\nCHANGED", "in.txt"}, "one\nCHANGED\nfive\n", "", 0},
		{"line number", "", []string{"-n", "$=", "in.txt"}, "5\n", "", 0},
		{"list", "a\tb\\\x01\n", []string{"-n", "l"}, "a\\tb\\\\\\001$\n", "", 0},
		{"translate", "hello\n", []string{"y/abcdefghijklmnopqrstuvwxyz/ABCDEFGHIJKLMNOPQRSTUVWXYZ/"}, "HELLO\n", "", 0},
		{"hold reverse", "", []string{"1!G;h;$!d", "in.txt"}, "five\nfour\nthree\ntwo\none\n", "", 0},
		{"join lines", "", []string{":a;N;$!ba;s/\\n/,/g", "in.txt"}, "one,two,three,four,five\n", "", 0},
		{"N P D", "", []string{"$!N;P;D", "in.txt"}, "one\ntwo\nthree\nfour\nfive\n", "", 0},
		{"next", "", []string{"-n", "n;p", "in.txt"}, "two\nfour\n", "", 0},
		{"branch t", "aaa\n", []string{":a;s/a/b/;ta"}, "bbb\n", "", 0},
		{"branch T", "", []string{"s/o/0/;T;s/$/!/", "in.txt"}, "0ne!\ntw0!\nthree\nf0ur!\nfive\n", "", 0},
		{"branch to end", "", []string{"/o/b;s/$/ no-o/", "in.txt"}, "one\ntwo\nthree no-o\nfour\nfive no-o\n", "", 0},
		{"zap", "abc\n", []string{"z;s/^$/empty/"}, "empty\n", "", 0},
		{"exchange", "a\nb\n", []string{"x"}, "\na\n", "", 0},
		{"read file", "", []string{"1r r.txt", "noeol.txt"}, "x\nR1\nR2\ny", "", 0},
		{"read line", "", []string{"R r.txt", "in.txt"}, "one\nR1\ntwo\nR2\nthree\nfour\nfive\n", "", 0},
		{"no newline kept", "", []string{"s/y/Y/", "noeol.txt"}, "x\nY", "", 0},
		{"script file", "", []string{"-f", "script", "in.txt"}, "1\ntwo\nfour\nfive\n", "", 0},
		{"several -e", "", []string{"-e", "1d", "-e", "s/two/2/", "in.txt"}, "2\nthree\nfour\nfive\n", "", 0},
		{"separate", "", []string{"-s", "-n", "$p", "in.txt", "noeol.txt"}, "five\ny", "", 0},
		{"continuous", "", []string{"-n", "$p", "in.txt", "noeol.txt"}, "y", "", 0},
		{"semicolon after brace", "", []string{"-n", "2{p};4p", "in.txt"}, "two\nfour\n", "", 0},
		{"comment", "", []string{"-n", "# nothing\n2p # print", "in.txt"}, "two\n", "", 0},
		{"#n", "", []string{"#n\n3p", "in.txt"}, "three\n", "", 0},
		{"null data", "a\x00b\x00", []string{"-z", "s/^/>/"}, ">a\x00>b\x00", "", 0},
		{"filename", "", []string{"-n", "1F", "in.txt"}, "in.txt\n", "", 0},
		{"stdin filename", "x\n", []string{"F"}, "-\nx\n", "", 0},
		{"missing file", "", []string{"p", "nope", "noeol.txt"}, "x\nx\ny\ny", "sed: can't read nope: No such file or directory\n", 2},
		{"directory", "", []string{"p", "/home"}, "", "sed: read error on /home: Is a directory\n", 4},
		{"unterminated s", "", []string{"s/a/b", "in.txt"}, "", "sed: -e expression #1, char 5: unterminated `s' command\n", 1},
		{"unknown command", "", []string{"k", "in.txt"}, "", "sed: -e expression #1, char 1: unknown command: `k'\n", 1},
		{"second expression error", "", []string{"-e", "p", "-e", "k"}, "", "sed: -e expression #2, char 1: unknown command: `k'\n", 1},
		{"file error", "", []string{"-f", "bad.sed", "in.txt"}, "", "sed: couldn't open file bad.sed: No such file or directory\n", 4},
		{"unmatched brace", "", []string{"/x/{p", "in.txt"}, "", "unmatched `{'", 1},
		{"unexpected brace", "", []string{"p}", "in.txt"}, "", "unexpected `}'", 1},
		{"missing label", "", []string{"b nowhere", "in.txt"}, "", "can't find label for jump to `nowhere'", 4},
		{"bad reference", "", []string{"s/a/\\1/", "in.txt"}, "", "invalid reference \\1 on `s' command's RHS", 1},
		{"backref pattern", "", []string{"s/\\(a\\)\\1/x/", "in.txt"}, "", "back-references in patterns are not supported", 1},
		{"y lengths", "", []string{"y/ab/c/", "in.txt"}, "", "strings for `y' command are different lengths", 1},
		{"extra chars", "", []string{"pq", "in.txt"}, "", "extra characters after command", 1},
		{"one address", "", []string{"1,2q", "in.txt"}, "", "command only uses one address", 1},
		{"no script", "", []string{}, "", "Usage: sed [OPTION]...", 1},
		{"bad option", "", []string{"-k", "p"}, "", "sed: invalid option -- 'k'", 1},
		{"e unsupported", "", []string{"e ls"}, "", "not supported", 1},
		{"no previous regex", "", []string{"s//x/", "in.txt"}, "", "no previous regular expression", 1},
		{"in-place without files", "", []string{"-i", "p"}, "", "sed: no input files\n", 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := cmdtest.RunGrepSed(t, "sed", tc.stdin, sedTestFiles, tc.args...)
			if out != tc.out || code != tc.code || !strings.Contains(errOut, tc.err) || (tc.err == "" && errOut != "") {
				t.Errorf("sed %q\n got out %q err %q code %d\nwant out %q err %q code %d", tc.args, out, errOut, code, tc.out, tc.err, tc.code)
			}
		})
	}
}

func TestSedInPlace(t *testing.T) {
	fsys := afero.NewMemMapFs()
	files := map[string]string{"a.txt": "one\ntwo\n", "b.txt": "three\n", "sub/c.txt": "x\n"}
	out, errOut, code := cmdtest.RunFS(t, fsys, "sed", "", files, "-i", "s/o/0/g;$a end", "a.txt", "b.txt")
	if out != "" || errOut != "" || code != 0 {
		t.Fatalf("sed -i: out %q err %q code %d", out, errOut, code)
	}
	if got := cmdtest.ReadFSFile(fsys, "a.txt"); got != "0ne\ntw0\nend\n" {
		t.Errorf("a.txt = %q", got)
	}
	if got := cmdtest.ReadFSFile(fsys, "b.txt"); got != "three\nend\n" {
		t.Errorf("b.txt = %q", got)
	}

	fsys = afero.NewMemMapFs()
	_, _, code = cmdtest.RunFS(t, fsys, "sed", "", files, "-i.bak", "1d", "a.txt")
	if code != 0 || cmdtest.ReadFSFile(fsys, "a.txt") != "two\n" || cmdtest.ReadFSFile(fsys, "a.txt.bak") != "one\ntwo\n" {
		t.Errorf("sed -i.bak: code %d a=%q bak=%q", code, cmdtest.ReadFSFile(fsys, "a.txt"), cmdtest.ReadFSFile(fsys, "a.txt.bak"))
	}

	fsys = afero.NewMemMapFs()
	_, _, code = cmdtest.RunFS(t, fsys, "sed", "", files, "--in-place=old_*", "s/x/y/", "sub/c.txt")
	if code != 0 || cmdtest.ReadFSFile(fsys, "sub/c.txt") != "y\n" || cmdtest.ReadFSFile(fsys, "sub/old_c.txt") != "x\n" {
		t.Errorf("sed --in-place=old_*: code %d c=%q bak=%q", code, cmdtest.ReadFSFile(fsys, "sub/c.txt"), cmdtest.ReadFSFile(fsys, "sub/old_c.txt"))
	}

	fsys = afero.NewMemMapFs()
	out, _, code = cmdtest.RunFS(t, fsys, "sed", "", files, "-n", "-i", "1p;1w /dev/stdout", "a.txt")
	if code != 0 || out != "one\n" || cmdtest.ReadFSFile(fsys, "a.txt") != "one\n" {
		t.Errorf("sed -n -i with w /dev/stdout: code %d out %q a=%q", code, out, cmdtest.ReadFSFile(fsys, "a.txt"))
	}

	fsys = afero.NewMemMapFs()
	_, errOut, code = cmdtest.RunFS(t, fsys, "sed", "", files, "-i", "s/^/>/", "missing", "b.txt")
	if code != 2 || !strings.Contains(errOut, "can't read missing") || cmdtest.ReadFSFile(fsys, "b.txt") != ">three\n" {
		t.Errorf("sed -i missing: code %d err %q b=%q", code, errOut, cmdtest.ReadFSFile(fsys, "b.txt"))
	}
}

func TestSedWriteFiles(t *testing.T) {
	fsys := afero.NewMemMapFs()
	files := map[string]string{"in": "a1\nb2\na3\n"}
	out, _, code := cmdtest.RunFS(t, fsys, "sed", "", files, "-n", "/a/w as.txt\ns/b/B/w bs.txt", "in")
	if code != 0 || out != "" {
		t.Fatalf("code %d out %q", code, out)
	}
	if got := cmdtest.ReadFSFile(fsys, "as.txt"); got != "a1\na3\n" {
		t.Errorf("as.txt = %q", got)
	}
	if got := cmdtest.ReadFSFile(fsys, "bs.txt"); got != "B2\n" {
		t.Errorf("bs.txt = %q", got)
	}
}

func sedTestCall(fsys afero.Fs, stdin string, out *bytes.Buffer) *command.Call {
	return &command.Call{Stdin: strings.NewReader(stdin), Stdout: out, Stderr: out, Dir: "/", FS: fsys,
		Env: func(string) (string, bool) { return "", false }, Environ: func() []string { return nil }}
}

func TestSedContext(t *testing.T) {
	b, _ := command.Lookup("sed")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var out bytes.Buffer
	start := time.Now()
	err := b(ctx, sedTestCall(afero.NewMemMapFs(), "x\n", &out), []string{"sed", ":a;ba"})
	if err == nil || time.Since(start) > 5*time.Second {
		t.Errorf("endless loop: err %v after %v", err, time.Since(start))
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if err := b(ctx2, sedTestCall(afero.NewMemMapFs(), "x\n", &out), []string{"sed", "p"}); err == nil {
		t.Errorf("canceled context: no error")
	}
	out.Reset()
	err = b(context.Background(), sedTestCall(afero.NewMemMapFs(), "x\n", &out), []string{"sed", ":a;G;h;ba"})
	if command.ExitCode(err) != 4 || !strings.Contains(out.String(), "too large") {
		t.Errorf("runaway growth: err %v out %q", err, out.String())
	}
}

func TestSedQuitStopsReading(t *testing.T) {
	b, _ := command.Lookup("sed")
	var out bytes.Buffer
	c := sedTestCall(afero.NewMemMapFs(), "", &out)
	c.Stdin = cmdtest.Endless{}
	if err := b(context.Background(), c, []string{"sed", "3q"}); err != nil || out.String() != "y\ny\ny\n" {
		t.Errorf("sed 3q on endless input: %v %q", err, out.String())
	}
}

// FuzzSed: random scripts (and input, and options) never panic.
func FuzzSed(f *testing.F) {
	for _, s := range []string{
		"s/a/b/g", "1!G;h;$!d", ":a;N;$!ba;s/\\n/,/g", "$!N;P;D", "/x/,/y/{s//z/;p}", "y/abc/xyz/",
		"0,/a/d", "2~3p", "a\\\nfoo", "i bar", "c\\\nbaz", "=;l;F", "n;d", "s/\\(a\\)\\(b\\)*/\\2\\1/2p",
		"s/(a|b)+/\\U&\\E/", "x;G;H;g", "/a/I,+2!d", "T;t;bx;:x", "q5", "Q", "z;D", "R in", "w out",
		"s/a*/x/3g", "{{p};}", "l 3", "s/.*/\\L\\u&/", "$a end", "1~0p", "/[[:alpha:]]\\{2\\}/p",
		"s/\\b/|/g", "s/^/>/Mg", "/a/,~2{=;}", "W out", "r in",
	} {
		f.Add(s, "ab\nba\naab\n\nxyz", uint8(0))
		f.Add(s, "a\x00b\nc", uint8(15))
	}
	f.Fuzz(func(t *testing.T, script, input string, flags uint8) {
		if len(script) > 300 || len(input) > 1000 {
			return
		}
		args := []string{"sed"}
		for k, opt := range []string{"-n", "-E", "-s", "-z"} {
			if flags&(1<<k) != 0 {
				args = append(args, opt)
			}
		}
		args = append(args, "-e", script)
		if flags&16 != 0 {
			args = append(args, "-", "/in", "/missing")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		b, _ := command.Lookup("sed")
		fsys := afero.NewMemMapFs()
		afero.WriteFile(fsys, "/in", []byte("r1\nr2"), 0o644)
		var out bytes.Buffer
		b(ctx, sedTestCall(fsys, input, &out), args)
	})
}

func TestGrepSedStopOnClosedPipe(t *testing.T) {
	for _, args := range [][]string{{"grep", "y"}, {"sed", "p"}, {"sed", "-n", "p"}} {
		b, _ := command.Lookup(args[0])
		c := &command.Call{Stdin: cmdtest.Endless{}, Stdout: grepClosedPipe{}, Stderr: io.Discard, Dir: "/", FS: afero.NewMemMapFs(),
			Env: func(string) (string, bool) { return "", false }, Environ: func() []string { return nil }}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := b(ctx, c, args)
		cancel()
		if command.ExitCode(err) != 141 {
			t.Errorf("%q writing to a closed pipe: %v (status %d), want status 141", args, err, command.ExitCode(err))
		}
	}
}

// grepClosedPipe fails every write, as a pipe whose reader has gone.
type grepClosedPipe struct{}

func (grepClosedPipe) Write(p []byte) (int, error) { return 0, io.ErrClosedPipe }
