package shell

import "testing"

func TestTextJq(t *testing.T) {
	files := map[string]string{"a.json": `{"a":1,"b":[1,2]}`, "b.json": "1 2 3"}
	runTextCases(t, "jq", []textCase{
		{args: textArgs("."), stdin: `{"b":2,"a":[1,"x"]}`, want: "{\n  \"b\": 2,\n  \"a\": [\n    1,\n    \"x\"\n  ]\n}\n"},
		{args: textArgs("-c", ". + {c: 3}"), stdin: `{"b":2,"a":1}`, want: "{\"a\":1,\"b\":2,\"c\":3}\n"},
		{args: textArgs("-c", "."), stdin: `{"a": [1, 2]}`, want: "{\"a\":[1,2]}\n"},
		{args: textArgs("-r", ".name"), stdin: `{"name":"x y"}`, want: "x y\n"},
		{args: textArgs(".a", "a.json"), files: files, want: "1\n"},
		{args: textArgs("-s", "add", "b.json"), files: files, want: "6\n"},
		{args: textArgs("-n", "--arg", "x", "v", "--argjson", "y", "[1]", "[$x, $y]", "-c"), want: "[\"v\",[1]]\n"},
		{args: textArgs("-n", "1, 2"), want: "1\n2\n"},
		{args: textArgs("-e", ".a"), stdin: `{"a":null}`, want: "null\n", code: 1},
		{args: textArgs("-e", "empty"), stdin: `1`, code: 4},
		{args: textArgs("-j", ".[]"), stdin: `["a","b",1]`, want: "ab1"},
		{args: textArgs(".a +"), stdin: `1`, code: 3},
		{args: textArgs(".a"), stdin: `"str"`, code: 5},
		{args: textArgs("."), stdin: `{`, code: 2},
		{args: textArgs(".", "bad.json"), files: map[string]string{"bad.json": `{"x":`}, code: 2},
		{args: textArgs("-c", "[leaf_paths]"), stdin: `{"a":[1]}`, want: "[[\"a\",0]]\n"},
		{args: textArgs("-R", "."), stdin: "l1\nl2\n", want: "\"l1\"\n\"l2\"\n"},
		{args: textArgs("-Rs", "."), stdin: "l1\nl2\n", want: "\"l1\\nl2\\n\"\n"},
		{args: textArgs("-n", "$ENV.HOME"), want: "\"/home/user\"\n"},
		{args: textArgs("-n", "[inputs]", "-c"), stdin: "1 2", want: "[1,2]\n"},
		{args: textArgs(".", "nope.json"), code: 2},
		{args: textArgs("-n", `"a" | halt_error(3)`), code: 3, stderr: "a"},
		{args: textArgs("-n", "100000000000000000000, 1e1000, 0.00001, 3.0"), want: "1e+20\n1.7976931348623157e+308\n1e-05\n3\n"},
	})
}

func TestTextJqGNU(t *testing.T) {
	doc := `{"a":1,"b":[1,2,{"c":"x"}],"d":{"e":null,"f":true},"g":"h\u00e9\t\u0001","n":1.5}`
	var cases []textGNUCase
	for _, f := range []string{
		".", ".a", ".b", ".b[2].c", ".d", "keys", "length", ".b | length", "[.b[] | numbers]", ".b | map(type)",
		"to_entries", "with_entries(.value |= tostring)", ".n * 2", ".a + .n", "[.[] | type]", ".g", "{a, n}",
		"[paths]", "[leaf_paths]", ".b | reverse", ".d | has(\"e\")", "[.b[] | select(type == \"number\") | . * 10]",
		"del(.b)", ".b[1:]", "tojson", ".missing", ".missing // \"default\"", "[range(5)]", "[limit(2; .b[])]",
		"(.a | tostring) + \"x\"", "[.b[]?]", "1e3, 1.5e300, 0.1 + 0.2, 1/3", "[.[] | numbers] | add",
		"splits(\"x\")?", ".g | ascii_downcase", ".g | explode", "[.g | explode[]] | implode", "env | type", "@base64 \"x\\(.a)\"",
		"[.b[] | tostring] | join(\",\")", ".b | first, last", "any, all", "[.a, .n] | min, max", "path(..)", "[..] | length",
	} {
		cases = append(cases, textGNUCase{args: textArgs(f), stdin: doc}, textGNUCase{args: textArgs("-c", f), stdin: doc})
	}
	stream := "1 \"two\" [3] {\"four\":4} null true"
	for _, a := range [][]string{
		{"."}, {"-c", "."}, {"-r", "."}, {"-s", "."}, {"-s", "-c", "."}, {"-e", "."}, {"type"}, {"-j", "."}, {"-n", "1+1"},
		{"-n", "[inputs]"}, {"-n", "input"}, {"-c", "--arg", "x", "1", "[., $x]"}, {"-c", "--argjson", "x", "{\"y\":[1]}", "$x"},
		{"--tab", "."}, {"--indent", "1", "."}, {"--indent", "0", "."}, {"-a", "."}, {"-r", "tostring"}, {"-e", "empty"},
		{"-c", "-n", "$ARGS.positional", "--args", "a", "b"}, {"-c", "-n", "$ARGS.positional", "--jsonargs", "1", "{}"},
	} {
		cases = append(cases, textGNUCase{args: a, stdin: stream})
	}
	files := map[string]string{"a.json": `{"x":1}`, "b.json": "[1,2]\n[3]", "bad.json": "{\"x\":", "prog.jq": ".x"}
	cases = append(cases,
		textGNUCase{args: textArgs(".", "a.json", "b.json"), files: files},
		textGNUCase{args: textArgs("-s", "-c", ".", "a.json", "b.json"), files: files},
		textGNUCase{args: textArgs("-f", "prog.jq", "a.json"), files: files},
		textGNUCase{args: textArgs("-c", "--slurpfile", "v", "b.json", "-n", "$v"), files: files},
		textGNUCase{args: textArgs("--rawfile", "v", "b.json", "-n", "$v"), files: files},
		textGNUCase{args: textArgs(".", "missing.json"), files: files},
		textGNUCase{args: textArgs(".a +"), stdin: "1"},
		textGNUCase{args: textArgs(".a"), stdin: "\"s\""},
		textGNUCase{args: textArgs("-R", "."), stdin: "a\nb\n"},
		textGNUCase{args: textArgs("-R", "-s", "."), stdin: "a\nb\n"},
		textGNUCase{args: textArgs("-R", "-r", "split(\",\") | .[1]"), stdin: "a,b\nc,d"},
		textGNUCase{args: textArgs("-e", ".[]"), stdin: "[1, false]"},
		textGNUCase{args: textArgs("-e", ".[]"), stdin: "[false, 1]"},
		textGNUCase{args: textArgs("-n", "\"x\" | error"), stdin: ""},
		textGNUCase{args: textArgs(".[0]"), stdin: "[100000000000000000000, 12345678901234567890, 1e-7, 123456.789e3]"},
		textGNUCase{args: textArgs(".[] | . * 1"), stdin: "[100000000000000000000, 12345678901234567890, 1e-7, 123456.789e3, 1e17, 1e16]"},
		textGNUCase{args: textArgs("-c", "."), stdin: "[1.0, 1.10, -0.0, 0e10, 5E-324]"},
		textGNUCase{args: textArgs("."), stdin: `{"z":1,"a":{"y":[{"q":1,"b":2}],"b":null},"m":"x"} {"b":1,"a":2}`},
		textGNUCase{args: textArgs("-c", ".a"), stdin: `{"z":1,"a":{"y":[{"q":1,"b":2}],"b":null},"m":"x"}`},
		textGNUCase{args: textArgs("-c", ".[]"), stdin: `[{"z":1,"a":2},{"b":3,"a":4}]`},
		textGNUCase{args: textArgs("-c", "--argjson", "v", `{"z":1,"a":2}`, "-n", "$v"), stdin: ""},
		textGNUCase{args: textArgs("-s", "-c", "."), stdin: `{"z":1,"a":2} {"y":1,"b":2}`},
	)
	textGNUDiff(t, "jq", "jq", cases)
}
