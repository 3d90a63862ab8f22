package codec

import (
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextOdXxd(t *testing.T) {
	cmdtest.RunCases(t, "od", []cmdtest.Case{
		{Args: cmdtest.Args("-c"), Stdin: "hi\n", Want: "0000000   h   i  \\n\n0000003\n"},
		{Args: cmdtest.Args("-A", "x", "-t", "x1"), Stdin: "AB", Want: "000000 41 42\n000002\n"},
	})
	cmdtest.RunCases(t, "xxd", []cmdtest.Case{
		{Args: cmdtest.Args(), Stdin: "hello\n", Want: "00000000: 6865 6c6c 6f0a                           hello.\n"},
		{Args: cmdtest.Args("-p"), Stdin: "hello", Want: "68656c6c6f\n"},
		{Args: cmdtest.Args("-r", "-p"), Stdin: "68656c6c6f\n", Want: "hello"},
	})
}

func TestTextOdXxdGNU(t *testing.T) {
	bin := "hello world\x00\x01\x02\x7f\x80\xff\n\t\r\b\a\f\v" + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" + "xyz"
	var od []cmdtest.GNUCase
	for _, a := range [][]string{{}, {"-c"}, {"-b"}, {"-x"}, {"-d"}, {"-o"}, {"-i"}, {"-s"}, {"-t", "x1"}, {"-t", "x2"}, {"-t", "x4"},
		{"-t", "x8"}, {"-t", "o1"}, {"-t", "u1"}, {"-t", "d1"}, {"-t", "u4"}, {"-t", "d2"}, {"-t", "a"}, {"-A", "x", "-c"}, {"-A", "d", "-t", "x1"},
		{"-A", "n", "-c"}, {"-t", "x1", "-t", "c"}, {"-c", "-t", "x2"}, {"-t", "o2", "-t", "c"}, {"-v", "-c"}, {"-j", "5", "-c"},
		{"-N", "7", "-c"}, {"-w8", "-t", "x1"}, {"-w", "-c"}, {"-tx1z"}, {"-t", "d4", "-t", "x1"}, {"-t", "xC"}, {"-t", "oS"}} {
		od = append(od, cmdtest.GNUCase{Args: a, Stdin: bin})
	}
	od = append(od, cmdtest.GNUCase{Args: cmdtest.Args("-c"), Stdin: ""}, cmdtest.GNUCase{Args: cmdtest.Args("-x"), Stdin: "abc"})
	cmdtest.GNUDiff(t, "od", "od", od)
	var xxd []cmdtest.GNUCase
	for _, a := range [][]string{{}, {"-p"}, {"-g1"}, {"-g4"}, {"-c8"}, {"-c", "10", "-g", "3"}, {"-u"}, {"-l", "10"}, {"-s", "5"},
		{"-i"}, {"-p", "-c", "8"}, {"-g0"}, {"-c", "32"}} {
		xxd = append(xxd, cmdtest.GNUCase{Args: a, Stdin: bin})
	}
	xxd = append(xxd,
		cmdtest.GNUCase{Args: cmdtest.Args("-r", "-p"), Stdin: "68656c6c6f0a\n7878"},
		cmdtest.GNUCase{Args: cmdtest.Args("-r"), Stdin: "00000000: 6865 6c6c 6f0a                           hello.\n"},
		cmdtest.GNUCase{Args: cmdtest.Args("-i", "f.bin"), Files: map[string]string{"f.bin": "ab"}},
		cmdtest.GNUCase{Stdin: ""},
	)
	cmdtest.GNUDiff(t, "xxd", "xxd", xxd)
}
