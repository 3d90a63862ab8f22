package shell

import "testing"

func TestTextOdXxd(t *testing.T) {
	runTextCases(t, "od", []textCase{
		{args: textArgs("-c"), stdin: "hi\n", want: "0000000   h   i  \\n\n0000003\n"},
		{args: textArgs("-A", "x", "-t", "x1"), stdin: "AB", want: "000000 41 42\n000002\n"},
	})
	runTextCases(t, "xxd", []textCase{
		{args: textArgs(), stdin: "hello\n", want: "00000000: 6865 6c6c 6f0a                           hello.\n"},
		{args: textArgs("-p"), stdin: "hello", want: "68656c6c6f\n"},
		{args: textArgs("-r", "-p"), stdin: "68656c6c6f\n", want: "hello"},
	})
}

func TestTextOdXxdGNU(t *testing.T) {
	bin := "hello world\x00\x01\x02\x7f\x80\xff\n\t\r\b\a\f\v" + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" + "xyz"
	var od []textGNUCase
	for _, a := range [][]string{{}, {"-c"}, {"-b"}, {"-x"}, {"-d"}, {"-o"}, {"-i"}, {"-s"}, {"-t", "x1"}, {"-t", "x2"}, {"-t", "x4"},
		{"-t", "x8"}, {"-t", "o1"}, {"-t", "u1"}, {"-t", "d1"}, {"-t", "u4"}, {"-t", "d2"}, {"-t", "a"}, {"-A", "x", "-c"}, {"-A", "d", "-t", "x1"},
		{"-A", "n", "-c"}, {"-t", "x1", "-t", "c"}, {"-c", "-t", "x2"}, {"-t", "o2", "-t", "c"}, {"-v", "-c"}, {"-j", "5", "-c"},
		{"-N", "7", "-c"}, {"-w8", "-t", "x1"}, {"-w", "-c"}, {"-tx1z"}, {"-t", "d4", "-t", "x1"}, {"-t", "xC"}, {"-t", "oS"}} {
		od = append(od, textGNUCase{args: a, stdin: bin})
	}
	od = append(od, textGNUCase{args: textArgs("-c"), stdin: ""}, textGNUCase{args: textArgs("-x"), stdin: "abc"})
	textGNUDiff(t, "od", "od", od)
	var xxd []textGNUCase
	for _, a := range [][]string{{}, {"-p"}, {"-g1"}, {"-g4"}, {"-c8"}, {"-c", "10", "-g", "3"}, {"-u"}, {"-l", "10"}, {"-s", "5"},
		{"-i"}, {"-p", "-c", "8"}, {"-g0"}, {"-c", "32"}} {
		xxd = append(xxd, textGNUCase{args: a, stdin: bin})
	}
	xxd = append(xxd,
		textGNUCase{args: textArgs("-r", "-p"), stdin: "68656c6c6f0a\n7878"},
		textGNUCase{args: textArgs("-r"), stdin: "00000000: 6865 6c6c 6f0a                           hello.\n"},
		textGNUCase{args: textArgs("-i", "f.bin"), files: map[string]string{"f.bin": "ab"}},
		textGNUCase{stdin: ""},
	)
	textGNUDiff(t, "xxd", "xxd", xxd)
}
