package procspec

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzRoundTrip: any spec's strings (the image's name aside, one of a few
// ASCII names), UTF-8 or not, come back byte for byte.
func FuzzRoundTrip(f *testing.F) {
	f.Add("\xff.py", "/home/d\xfe", "X=\xe9", int32(0), false)
	f.Add("a\x00b", "/", "", int32(3), true)
	f.Add("\xef\xbf\xbd", "", "K=\"v\\", int32(-1), false)
	f.Fuzz(func(t *testing.T, arg, dir, env string, stdin int32, merge bool) {
		m := uint32(0o027)
		in := Spec{Image: "busybox", Args: []string{arg, arg + "x"}, Dir: dir, Env: []string{env}, StdinFrom: stdin, StderrToStdout: merge, Umask: &m}
		raw, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		var out Spec
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if !reflect.DeepEqual(in, out) {
			t.Errorf("round trip:\n got %#v\nwant %#v", out, in)
		}
	})
}

// TestUnmarshal: nil lists stay nil, a missing umask is nil, and input that
// is not the wire form is an error.
func TestUnmarshal(t *testing.T) {
	var s Spec
	if err := json.Unmarshal([]byte(`{"image":"python","args":["cHl0aG9uMw=="]}`), &s); err != nil {
		t.Fatal(err)
	}
	if want := (Spec{Image: "python", Args: []string{"python3"}}); !reflect.DeepEqual(s, want) {
		t.Errorf("got %#v, want %#v", s, want)
	}
	for _, bad := range []string{`{"args":["not base64!"]}`, `{"args":"x"}`, `[`} {
		if err := json.Unmarshal([]byte(bad), &s); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
