package pyrepr

import (
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/agentenkit/agentenkit/internal/testenv"
)

// cases are checked against CPython 3.11 (TestStrLikePython does it again
// where python3 is).
var cases = map[string]string{
	"a":             "'a'",
	"":              "''",
	"it's":          `"it's"`,
	`it's "x"`:      `'it\'s "x"'`,
	"a\nb\tc\\\r":   `'a\nb\tc\\\r'`,
	"\x01\x7f":      `'\x01\x7f'`,
	"μ é ü":         "'μ é ü'",
	"\xff":          `'\udcff'`,
	"/\xff.py":      `'/\udcff.py'`,
	"\ufffd":        "'\ufffd'",
	"\u00a0\u200b":  `'\xa0\u200b'`,
	"\U0001f600":    "'\U0001f600'",
	"\U000e0001":    `'\U000e0001'`,
	"/a/b.py":       `'/a/b.py'`,
	"\u2028\u0085 ": `'\u2028\x85 '`,
	// The wasm engine's cases (paths in "can't open file").
	"/it's.py":      `"/it's.py"`,
	`/it's "q".py`:  `'/it\'s "q".py'`,
	"/t\tn\n\\x":    `'/t\tn\n\\x'`,
	"/é ü":          `'/é ü'`,
	"/\x7f\x01":     `'/\x7f\x01'`,
	"/\u00a0\u200b": `'/\xa0\u200b'`,
	"/\U0001f600":   "'/\U0001f600'",
	"/\U000e0001":   `'/\U000e0001'`,
}

func TestStr(t *testing.T) {
	for in, want := range cases {
		if got := Str(in); got != want {
			t.Errorf("Str(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestStrLikePython: the host's python3 gives the same repr of each case,
// decoded from the same bytes as CPython decodes argv (surrogateescape).
func TestStrLikePython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		testenv.Missing(t, "python3", "no python3 on $PATH (apt-get install python3)")
	}
	for in := range cases {
		arg, _ := json.Marshal([]byte(in)) // base64: any bytes through argv
		out, err := exec.Command(py, "-c", "import base64, json, os, sys; print(repr(os.fsdecode(base64.b64decode(json.loads(sys.argv[1])))), end='')", string(arg)).Output()
		if err != nil {
			t.Fatalf("python3: %v", err)
		}
		if got := Str(in); got != string(out) {
			t.Errorf("Str(%q) = %s, python3 says %s", in, got, out)
		}
	}
}
