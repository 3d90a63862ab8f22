package codec

import (
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextBase64(t *testing.T) {
	cmdtest.RunCases(t, "base64", []cmdtest.Case{
		{Args: cmdtest.Args(), Stdin: "hello", Want: "aGVsbG8=\n"},
		{Args: cmdtest.Args("-d"), Stdin: "aGVsbG8=\n", Want: "hello"},
		{Args: cmdtest.Args("-w", "4"), Stdin: "hello", Want: "aGVs\nbG8=\n"},
		{Args: cmdtest.Args("-w0"), Stdin: "hello", Want: "aGVsbG8="},
		{Args: cmdtest.Args(), Stdin: strings.Repeat("x", 60), Want: strings.Repeat("eHh4", 19)[:76] + "\n" + strings.Repeat("eHh4", 20)[76:] + "\n"},
		{Args: cmdtest.Args("-d"), Stdin: "YQ", Want: "a", Code: 1, Stderr: "base64: invalid input\n"},
		{Args: cmdtest.Args("-di"), Stdin: "Y*Q==", Want: "a"},
		{Args: cmdtest.Args("f"), Files: map[string]string{"f": "abc"}, Want: "YWJj\n"},
	})
}

func TestTextBase64GNU(t *testing.T) {
	bin := ""
	for i := 0; i < 300; i++ {
		bin += string(rune(i % 256))
	}
	var cases []cmdtest.GNUCase
	for _, in := range []string{"", "a", "ab", "abc", "abcd", "hello world\n", bin, strings.Repeat("0123456789", 100)} {
		for _, a := range [][]string{{}, {"-w", "0"}, {"-w", "10"}, {"-w", "1"}, {"--wrap=76"}} {
			cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: in})
		}
	}
	for _, in := range []string{"aGVsbG8=", "aGVs\nbG8=\n", "YQ", "YQ=", "YWI=", "YQ==YQ==", "Y Q==", "Y*Q==", "!!!!", "", "\n\n", "aGVsbG8", "====", "YR=="} {
		cases = append(cases, cmdtest.GNUCase{Args: cmdtest.Args("-d"), Stdin: in, Stderr: true}, cmdtest.GNUCase{Args: cmdtest.Args("-di"), Stdin: in, Stderr: true})
	}
	cases = append(cases, cmdtest.GNUCase{Args: cmdtest.Args("f"), Files: map[string]string{"f": bin}},
		cmdtest.GNUCase{Args: cmdtest.Args("missing"), Stderr: true}, cmdtest.GNUCase{Args: cmdtest.Args("a", "b"), Stderr: true})
	cmdtest.GNUDiff(t, "base64", "base64", cases)
}

func TestTextSum(t *testing.T) {
	files := map[string]string{"a": "x\n", "e": ""}
	cmdtest.RunCases(t, "md5sum", []cmdtest.Case{
		{Args: cmdtest.Args("a"), Files: files, Want: "401b30e3b8b5d629635a5c613cdb7919  a\n"},
		{Args: cmdtest.Args(), Stdin: "x\n", Want: "401b30e3b8b5d629635a5c613cdb7919  -\n"},
		{Args: cmdtest.Args("--tag", "e"), Files: files, Want: "MD5 (e) = d41d8cd98f00b204e9800998ecf8427e\n"},
		{Args: cmdtest.Args("-c"), Stdin: "401b30e3b8b5d629635a5c613cdb7919  a\n", Files: files, Want: "a: OK\n"},
		{Args: cmdtest.Args("-c"), Stdin: "d41d8cd98f00b204e9800998ecf8427e  a\n", Files: files, Want: "a: FAILED\n", Code: 1,
			Stderr: "md5sum: WARNING: 1 computed checksum did NOT match\n"},
		{Args: cmdtest.Args("nope"), Code: 1, Stderr: "md5sum: nope: No such file or directory\n"},
	})
	cmdtest.RunCases(t, "sha256sum", []cmdtest.Case{
		{Args: cmdtest.Args(), Stdin: "", Want: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  -\n"},
	})
}

func TestTextSumGNU(t *testing.T) {
	files := map[string]string{"a": "x\n", "e": "", "b": "hello", "d/": "", "back\\slash": "q"}
	for _, cmd := range []string{"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum"} {
		var cases []cmdtest.GNUCase
		for _, a := range [][]string{{"a"}, {"a", "e", "b"}, {"-b", "a"}, {"--tag", "a", "b"}, {"-", "a"}, {"-z", "a"}, {"back\\slash"}, {"--tag", "back\\slash"}} {
			cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: "in", Files: files})
		}
		cases = append(cases, cmdtest.GNUCase{Args: cmdtest.Args("a", "missing", "d"), Files: files, Stderr: true})
		// Check mode, with lists made by the real tool.
		c, out, _ := cmdtest.NewCall(t, "", files)
		b, _ := command.Lookup(cmd)
		if err := b(t.Context(), c, cmdtest.Args(cmd, "a", "e", "b")); err != nil {
			t.Fatal(err)
		}
		good := out.String()
		lists := map[string]string{
			"good": good, "bad": strings.Replace(good, "e  a", "e  b", 1) + "junk line\n" + strings.Repeat("0", len(good)/3-3) + "  missing\n",
			"mixed": good + "# comment\n", "junk": "not a checksum\n",
		}
		for k, v := range files {
			lists[k] = v
		}
		for _, a := range [][]string{
			{"-c", "good"}, {"-c", "bad"}, {"-c", "--quiet", "bad"}, {"-c", "--status", "bad"}, {"-c", "--strict", "mixed"},
			{"-c", "junk"}, {"-c", "-w", "bad"}, {"-c", "--ignore-missing", "bad"}, {"-c", "good", "junk"}, {"-c", "-"},
		} {
			cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: good, Files: lists, Stderr: a[1] != "-w"})
		}
		cmdtest.GNUDiff(t, cmd, cmd, cases)
	}
}
