package jq

import (
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextJq(t *testing.T) {
	files := map[string]string{"a.json": `{"a":1,"b":[1,2]}`, "b.json": "1 2 3"}
	cmdtest.RunCases(t, "jq", []cmdtest.Case{
		{Args: cmdtest.Args("."), Stdin: `{"b":2,"a":[1,"x"]}`, Want: "{\n  \"b\": 2,\n  \"a\": [\n    1,\n    \"x\"\n  ]\n}\n"},
		{Args: cmdtest.Args("-c", ". + {c: 3}"), Stdin: `{"b":2,"a":1}`, Want: "{\"a\":1,\"b\":2,\"c\":3}\n"},
		{Args: cmdtest.Args("-c", "."), Stdin: `{"a": [1, 2]}`, Want: "{\"a\":[1,2]}\n"},
		{Args: cmdtest.Args("-r", ".name"), Stdin: `{"name":"x y"}`, Want: "x y\n"},
		{Args: cmdtest.Args(".a", "a.json"), Files: files, Want: "1\n"},
		{Args: cmdtest.Args("-s", "add", "b.json"), Files: files, Want: "6\n"},
		{Args: cmdtest.Args("-n", "--arg", "x", "v", "--argjson", "y", "[1]", "[$x, $y]", "-c"), Want: "[\"v\",[1]]\n"},
		{Args: cmdtest.Args("-n", "1, 2"), Want: "1\n2\n"},
		{Args: cmdtest.Args("-e", ".a"), Stdin: `{"a":null}`, Want: "null\n", Code: 1},
		{Args: cmdtest.Args("-e", "empty"), Stdin: `1`, Code: 4},
		{Args: cmdtest.Args("-j", ".[]"), Stdin: `["a","b",1]`, Want: "ab1"},
		{Args: cmdtest.Args(".a +"), Stdin: `1`, Code: 3},
		{Args: cmdtest.Args(".a"), Stdin: `"str"`, Code: 5},
		{Args: cmdtest.Args("."), Stdin: `{`, Code: 2},
		{Args: cmdtest.Args(".", "bad.json"), Files: map[string]string{"bad.json": `{"x":`}, Code: 2},
		{Args: cmdtest.Args("-c", "[leaf_paths]"), Stdin: `{"a":[1]}`, Want: "[[\"a\",0]]\n"},
		{Args: cmdtest.Args("-R", "."), Stdin: "l1\nl2\n", Want: "\"l1\"\n\"l2\"\n"},
		{Args: cmdtest.Args("-Rs", "."), Stdin: "l1\nl2\n", Want: "\"l1\\nl2\\n\"\n"},
		{Args: cmdtest.Args("-n", "$ENV.HOME"), Want: "\"/home/user\"\n"},
		{Args: cmdtest.Args("-n", "[inputs]", "-c"), Stdin: "1 2", Want: "[1,2]\n"},
		{Args: cmdtest.Args(".", "nope.json"), Code: 2},
		{Args: cmdtest.Args("-n", `"a" | halt_error(3)`), Code: 3, Stderr: "a"},
		{Args: cmdtest.Args("-n", "100000000000000000000, 1e1000, 0.00001, 3.0"), Want: "1e+20\n1.7976931348623157e+308\n1e-05\n3\n"},
	})
}

func TestTextJqGNU(t *testing.T) {
	doc := `{"a":1,"b":[1,2,{"c":"x"}],"d":{"e":null,"f":true},"g":"h\u00e9\t\u0001","n":1.5}`
	var cases []cmdtest.GNUCase
	for _, f := range []string{
		".", ".a", ".b", ".b[2].c", ".d", "keys", "length", ".b | length", "[.b[] | numbers]", ".b | map(type)",
		"to_entries", "with_entries(.value |= tostring)", ".n * 2", ".a + .n", "[.[] | type]", ".g", "{a, n}",
		"[paths]", "[leaf_paths]", ".b | reverse", ".d | has(\"e\")", "[.b[] | select(type == \"number\") | . * 10]",
		"del(.b)", ".b[1:]", "tojson", ".missing", ".missing // \"default\"", "[range(5)]", "[limit(2; .b[])]",
		"(.a | tostring) + \"x\"", "[.b[]?]", "1e3, 1.5e300, 0.1 + 0.2, 1/3", "[.[] | numbers] | add",
		"splits(\"x\")?", ".g | ascii_downcase", ".g | explode", "[.g | explode[]] | implode", "env | type", "@base64 \"x\\(.a)\"",
		"[.b[] | tostring] | join(\",\")", ".b | first, last", "any, all", "[.a, .n] | min, max", "path(..)", "[..] | length",
	} {
		cases = append(cases, cmdtest.GNUCase{Args: cmdtest.Args(f), Stdin: doc}, cmdtest.GNUCase{Args: cmdtest.Args("-c", f), Stdin: doc})
	}
	stream := "1 \"two\" [3] {\"four\":4} null true"
	for _, a := range [][]string{
		{"."}, {"-c", "."}, {"-r", "."}, {"-s", "."}, {"-s", "-c", "."}, {"-e", "."}, {"type"}, {"-j", "."}, {"-n", "1+1"},
		{"-n", "[inputs]"}, {"-n", "input"}, {"-c", "--arg", "x", "1", "[., $x]"}, {"-c", "--argjson", "x", "{\"y\":[1]}", "$x"},
		{"--tab", "."}, {"--indent", "1", "."}, {"--indent", "0", "."}, {"-a", "."}, {"-r", "tostring"}, {"-e", "empty"},
		{"-c", "-n", "$ARGS.positional", "--args", "a", "b"}, {"-c", "-n", "$ARGS.positional", "--jsonargs", "1", "{}"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: stream})
	}
	files := map[string]string{"a.json": `{"x":1}`, "b.json": "[1,2]\n[3]", "bad.json": "{\"x\":", "prog.jq": ".x"}
	cases = append(cases,
		cmdtest.GNUCase{Args: cmdtest.Args(".", "a.json", "b.json"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("-s", "-c", ".", "a.json", "b.json"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("-f", "prog.jq", "a.json"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("-c", "--slurpfile", "v", "b.json", "-n", "$v"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("--rawfile", "v", "b.json", "-n", "$v"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args(".", "missing.json"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args(".a +"), Stdin: "1"},
		cmdtest.GNUCase{Args: cmdtest.Args(".a"), Stdin: "\"s\""},
		cmdtest.GNUCase{Args: cmdtest.Args("-R", "."), Stdin: "a\nb\n"},
		cmdtest.GNUCase{Args: cmdtest.Args("-R", "-s", "."), Stdin: "a\nb\n"},
		cmdtest.GNUCase{Args: cmdtest.Args("-R", "-r", "split(\",\") | .[1]"), Stdin: "a,b\nc,d"},
		cmdtest.GNUCase{Args: cmdtest.Args("-e", ".[]"), Stdin: "[1, false]"},
		cmdtest.GNUCase{Args: cmdtest.Args("-e", ".[]"), Stdin: "[false, 1]"},
		cmdtest.GNUCase{Args: cmdtest.Args("-n", "\"x\" | error"), Stdin: ""},
		cmdtest.GNUCase{Args: cmdtest.Args(".[0]"), Stdin: "[100000000000000000000, 12345678901234567890, 1e-7, 123456.789e3]"},
		cmdtest.GNUCase{Args: cmdtest.Args(".[] | . * 1"), Stdin: "[100000000000000000000, 12345678901234567890, 1e-7, 123456.789e3, 1e17, 1e16]"},
		cmdtest.GNUCase{Args: cmdtest.Args("-c", "."), Stdin: "[1.0, 1.10, -0.0, 0e10, 5E-324]"},
		cmdtest.GNUCase{Args: cmdtest.Args("."), Stdin: `{"z":1,"a":{"y":[{"q":1,"b":2}],"b":null},"m":"x"} {"b":1,"a":2}`},
		cmdtest.GNUCase{Args: cmdtest.Args("-c", ".a"), Stdin: `{"z":1,"a":{"y":[{"q":1,"b":2}],"b":null},"m":"x"}`},
		cmdtest.GNUCase{Args: cmdtest.Args("-c", ".[]"), Stdin: `[{"z":1,"a":2},{"b":3,"a":4}]`},
		cmdtest.GNUCase{Args: cmdtest.Args("-c", "--argjson", "v", `{"z":1,"a":2}`, "-n", "$v"), Stdin: ""},
		cmdtest.GNUCase{Args: cmdtest.Args("-s", "-c", "."), Stdin: `{"z":1,"a":2} {"y":1,"b":2}`},
	)
	cmdtest.GNUDiff(t, "jq", "jq", cases)
}
