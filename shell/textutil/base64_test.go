package shell

import (
	"strings"
	"testing"
)

func TestTextBase64(t *testing.T) {
	runTextCases(t, "base64", []textCase{
		{args: textArgs(), stdin: "hello", want: "aGVsbG8=\n"},
		{args: textArgs("-d"), stdin: "aGVsbG8=\n", want: "hello"},
		{args: textArgs("-w", "4"), stdin: "hello", want: "aGVs\nbG8=\n"},
		{args: textArgs("-w0"), stdin: "hello", want: "aGVsbG8="},
		{args: textArgs(), stdin: strings.Repeat("x", 60), want: strings.Repeat("eHh4", 19)[:76] + "\n" + strings.Repeat("eHh4", 20)[76:] + "\n"},
		{args: textArgs("-d"), stdin: "YQ", want: "a", code: 1, stderr: "base64: invalid input\n"},
		{args: textArgs("-di"), stdin: "Y*Q==", want: "a"},
		{args: textArgs("f"), files: map[string]string{"f": "abc"}, want: "YWJj\n"},
	})
}

func TestTextBase64GNU(t *testing.T) {
	bin := ""
	for i := 0; i < 300; i++ {
		bin += string(rune(i % 256))
	}
	var cases []textGNUCase
	for _, in := range []string{"", "a", "ab", "abc", "abcd", "hello world\n", bin, strings.Repeat("0123456789", 100)} {
		for _, a := range [][]string{{}, {"-w", "0"}, {"-w", "10"}, {"-w", "1"}, {"--wrap=76"}} {
			cases = append(cases, textGNUCase{args: a, stdin: in})
		}
	}
	for _, in := range []string{"aGVsbG8=", "aGVs\nbG8=\n", "YQ", "YQ=", "YWI=", "YQ==YQ==", "Y Q==", "Y*Q==", "!!!!", "", "\n\n", "aGVsbG8", "====", "YR=="} {
		cases = append(cases, textGNUCase{args: textArgs("-d"), stdin: in, stderr: true}, textGNUCase{args: textArgs("-di"), stdin: in, stderr: true})
	}
	cases = append(cases, textGNUCase{args: textArgs("f"), files: map[string]string{"f": bin}},
		textGNUCase{args: textArgs("missing"), stderr: true}, textGNUCase{args: textArgs("a", "b"), stderr: true})
	textGNUDiff(t, "base64", "base64", cases)
}

func TestTextSum(t *testing.T) {
	files := map[string]string{"a": "x\n", "e": ""}
	runTextCases(t, "md5sum", []textCase{
		{args: textArgs("a"), files: files, want: "401b30e3b8b5d629635a5c613cdb7919  a\n"},
		{args: textArgs(), stdin: "x\n", want: "401b30e3b8b5d629635a5c613cdb7919  -\n"},
		{args: textArgs("--tag", "e"), files: files, want: "MD5 (e) = d41d8cd98f00b204e9800998ecf8427e\n"},
		{args: textArgs("-c"), stdin: "401b30e3b8b5d629635a5c613cdb7919  a\n", files: files, want: "a: OK\n"},
		{args: textArgs("-c"), stdin: "d41d8cd98f00b204e9800998ecf8427e  a\n", files: files, want: "a: FAILED\n", code: 1,
			stderr: "md5sum: WARNING: 1 computed checksum did NOT match\n"},
		{args: textArgs("nope"), code: 1, stderr: "md5sum: nope: No such file or directory\n"},
	})
	runTextCases(t, "sha256sum", []textCase{
		{args: textArgs(), stdin: "", want: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  -\n"},
	})
}

func TestTextSumGNU(t *testing.T) {
	files := map[string]string{"a": "x\n", "e": "", "b": "hello", "d/": "", "back\\slash": "q"}
	for _, cmd := range []string{"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum"} {
		var cases []textGNUCase
		for _, a := range [][]string{{"a"}, {"a", "e", "b"}, {"-b", "a"}, {"--tag", "a", "b"}, {"-", "a"}, {"-z", "a"}, {"back\\slash"}, {"--tag", "back\\slash"}} {
			cases = append(cases, textGNUCase{args: a, stdin: "in", files: files})
		}
		cases = append(cases, textGNUCase{args: textArgs("a", "missing", "d"), files: files, stderr: true})
		// Check mode, with lists made by the real tool.
		c, out, _ := newTextCall(t, "", files)
		b, _ := lookupBuiltin(cmd)
		if err := b(t.Context(), c, textArgs(cmd, "a", "e", "b")); err != nil {
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
			cases = append(cases, textGNUCase{args: a, stdin: good, files: lists, stderr: a[1] != "-w"})
		}
		textGNUDiff(t, cmd, cmd, cases)
	}
}
