package diff

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/shell/command"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextCmp(t *testing.T) {
	files := map[string]string{"a": "abc\ndef\n", "b": "abc\ndxf\n", "c": "abc", "e": ""}
	cmdtest.RunCases(t, "cmp", []cmdtest.Case{
		{Args: cmdtest.Args("a", "a"), Files: files},
		{Args: cmdtest.Args("a", "b"), Files: files, Want: "a b differ: char 6, line 2\n", Code: 1},
		{Args: cmdtest.Args("-s", "a", "b"), Files: files, Code: 1},
		{Args: cmdtest.Args("-l", "a", "b"), Files: files, Want: "6 145 170\n", Code: 1},
		{Args: cmdtest.Args("a", "c"), Files: files, Code: 1, Stderr: "cmp: EOF on c after byte 3, in line 1\n"},
		{Args: cmdtest.Args("e", "a"), Files: files, Code: 1, Stderr: "cmp: EOF on e which is empty\n"},
		{Args: cmdtest.Args("a", "nope"), Files: files, Code: 2, Stderr: "cmp: nope: No such file or directory\n"},
		{Args: cmdtest.Args("a", "-"), Stdin: "abc\ndef\n", Files: files},
	})
}

func TestTextCmpGNU(t *testing.T) {
	files := map[string]string{"a": "abc\ndef\nghi\n", "b": "abc\ndxf\nghj\n", "c": "abc", "e": "", "h": "\x01\x80\xff\n", "h2": "\x02\x81\xfe\n"}
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{"a", "a"}, {"a", "b"}, {"b", "a"}, {"-s", "a", "b"}, {"-l", "a", "b"}, {"-b", "a", "b"}, {"-lb", "a", "b"},
		{"a", "c"}, {"c", "a"}, {"e", "a"}, {"a", "e"}, {"-l", "a", "c"}, {"-s", "a", "c"}, {"-n", "5", "a", "b"},
		{"-n", "7", "a", "b"}, {"-i", "6", "a", "b"}, {"-i", "1:1", "a", "b"}, {"a", "b", "6", "6"}, {"-l", "h", "h2"},
		{"-lb", "h", "h2"}, {"-b", "h", "h2"}, {"e", "e"}, {"-l", "-n", "2", "a", "b"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Files: files})
	}
	cases = append(cases,
		cmdtest.GNUCase{Args: cmdtest.Args("a", "c"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("e", "a"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-l", "a", "c"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "missing"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "-"), Stdin: "abc\ndef\nghi\n", Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("a"), Stdin: "abc\nd", Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args(), Files: files, Stderr: true},
	)
	cmdtest.GNUDiff(t, "cmp", "cmp", cases)
}

// TestCmpWordFollowsLocale: "differ: char" or "differ: byte" as the host's
// (Debian) cmp picks it from LC_ALL, LC_MESSAGES and LANG.
func TestCmpWordFollowsLocale(t *testing.T) {
	real, err := exec.LookPath("cmp")
	if err != nil {
		testenv.Missing(t, "cmp", "the locale test compares with GNU cmp")
	}
	if out, _ := exec.Command(real, "--version").Output(); !strings.Contains(string(out), "GNU diffutils) 3.8") {
		t.Skipf("the host's cmp is not Debian's diffutils 3.8 (%q): its wording differs", strings.SplitN(string(out), "\n", 2)[0])
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"a": "abc\nx", "b": "abc\ny"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, env := range [][]string{
		nil, {"LC_ALL=C"}, {"LC_ALL=POSIX"}, {"LC_ALL=C.UTF-8"}, {"LC_ALL=C.utf8"}, {"LANG=C.UTF-8"},
		{"LC_MESSAGES=C.UTF-8"}, {"LANG=C.UTF-8", "LC_MESSAGES=C"}, {"LANG=C", "LC_ALL=C.UTF-8"},
		{"LANG=c.utf8"}, {"LANG=en_US.UTF-8"}, {"LC_CTYPE=C.UTF-8"}, {"LC_ALL=", "LANG=C.UTF-8"}, {"LANG=C.UTF8"},
	} {
		cmd := exec.Command(real, "a", "b")
		cmd.Dir, cmd.Env = dir, append([]string{}, env...)
		want, _ := cmd.Output()
		m := map[string]string{}
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			m[k] = v
		}
		fs := afero.NewMemMapFs()
		_ = afero.WriteFile(fs, "/w/a", []byte("abc\nx"), 0o644)
		_ = afero.WriteFile(fs, "/w/b", []byte("abc\ny"), 0o644)
		var out, errb bytes.Buffer
		c := &command.Call{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: "/w", FS: fs}
		c.SetEnv(m)
		_ = textCmp(context.Background(), c, []string{"cmp", "a", "b"})
		if out.String() != string(want) {
			t.Errorf("env %q: %q, GNU cmp %q", env, out.String(), want)
		}
	}
}
