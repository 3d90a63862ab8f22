package arith

import (
	"errors"
	"testing"
)

// mapVars is a Vars over a map; elements are stored under "name[sub]"
// with sub as written.
type mapVars map[string]string

func (m mapVars) Var(name string) (string, error) { return m[name], nil }

func (m mapVars) Elem(name, sub string, depth int) (string, error) {
	return m[name+"["+sub+"]"], nil
}

func (m mapVars) SetVar(name, val string) error { m[name] = val; return nil }

func (m mapVars) SetElem(name, sub, val string) error {
	m[name+"["+sub+"]"] = val
	return nil
}

// TestEval: each want was printed by bash 5.2 for $((expr)) with x=4,
// y=1 and a=(10 20).
func TestEval(t *testing.T) {
	tests := []struct {
		expr string
		want int64
		err  string
		vars map[string]string // after evaluation
	}{
		{expr: "", want: 0},
		{expr: "1+2*3", want: 7},
		{expr: "2**10", want: 1024},
		{expr: "7/2", want: 3},
		{expr: "-7%3", want: -1},
		{expr: "1<<65", want: 2},
		{expr: "x=5, x*2", want: 10, vars: map[string]string{"x": "5"}},
		{expr: "y+=3", want: 4, vars: map[string]string{"y": "4"}},
		{expr: "x=x+1", want: 5, vars: map[string]string{"x": "5"}},
		{expr: "0x1f + 010 + 2#101", want: 44},
		{expr: "64#@_", want: 4031},
		{expr: "1 ? 2 : 3", want: 2},
		{expr: "0 && 1/0", want: 0},
		{expr: "z", want: 0},
		{expr: "a[1]+1", want: 21},
		{expr: "a[1]=3, a[1]*2", want: 6, vars: map[string]string{"a[1]": "3"}},
		{expr: "1/0", err: `1/0: division by 0 (error token is "0")`},
		{expr: "2#12", err: `2#12: value too great for base (error token is "2#12")`},
		{expr: " 1 + 083  ", err: `1 + 083: value too great for base (error token is "083")`},
		{expr: "08 * 2 ", err: `08: value too great for base (error token is "08")`},
		{expr: "1 +", err: `1 +: syntax error: operand expected (error token is "+")`},
		{expr: "(1", err: "(1: missing `)' (error token is \"1\")"},
		{expr: "2**-1", err: `2**-1: exponent less than 0 (error token is "1")`},
		{expr: "3=4", err: `3=4: attempted assignment to non-variable (error token is "=4")`},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			v := mapVars{"x": "4", "y": "1", "a[0]": "10", "a[1]": "20"}
			got, err := Eval(v, tt.expr, 0)
			if tt.err != "" {
				var e *Error
				if !errors.As(err, &e) || e.Msg != tt.err {
					t.Fatalf("Eval(%q) error = %v, want %q", tt.expr, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Eval(%q) = %d, %v; want %d", tt.expr, got, err, tt.want)
			}
			for k, want := range tt.vars {
				if v[k] != want {
					t.Errorf("after Eval(%q): %s = %q, want %q", tt.expr, k, v[k], want)
				}
			}
		})
	}
}

// errVars fails every read: the error ends the evaluation unchanged.
type errVars struct{ mapVars }

var errUnbound = errors.New("x: unbound variable")

func (errVars) Var(string) (string, error) { return "", errUnbound }

func TestEvalVarsError(t *testing.T) {
	if _, err := Eval(errVars{mapVars{}}, "1 + x", 0); err != errUnbound {
		t.Fatalf("Eval error = %v, want %v", err, errUnbound)
	}
}

// TestEvalRecursion: a variable whose value names itself ends with
// bash's error, not a stack overflow.
func TestEvalRecursion(t *testing.T) {
	_, err := Eval(mapVars{"x": "x"}, "x", 0)
	var e *Error
	if !errors.As(err, &e) || e.Msg != `x: expression recursion level exceeded (error token is "x")` {
		t.Fatalf("Eval error = %v", err)
	}
}

// TestUnquoteKey checks keys as bash 5.2 stores them: declare -A A;
// (( A["a b"]=1 )); (( A[\x]=2 )); (( A['c']=3 )); (( A[plain]=6 ));
// (( A['h\i']=7 )); declare -p A.
func TestUnquoteKey(t *testing.T) {
	for _, c := range [][2]string{{`"a b"`, "a b"}, {`\x`, "x"}, {`'c'`, "c"}, {"plain", "plain"}, {`'h\i'`, `h\i`}} {
		if got := UnquoteKey(c[0]); got != c[1] {
			t.Errorf("UnquoteKey(%s) = %q, want %q", c[0], got, c[1])
		}
	}
}

// TestEvalValues: a variable's value is itself an expression (bash 5.2
// with x=VALUE; echo $((x))), plain decimals included.
func TestEvalValues(t *testing.T) {
	for _, c := range []struct {
		val  string
		want int64
		err  bool
	}{
		{val: "0", want: 0},
		{val: "7", want: 7},
		{val: "123456789012345678", want: 123456789012345678},
		{val: "1234567890123456789", want: 1234567890123456789},
		{val: "010", want: 8},
		{val: "08", err: true},
		{val: "0x1f", want: 31},
		{val: " 5", want: 5},
		{val: "3 ", want: 3},
		{val: "-3", want: -3},
		{val: "2#101", want: 5},
		{val: "1+2", want: 3},
		{val: "12a", err: true},
	} {
		got, err := Eval(mapVars{"x": c.val}, "x", 0)
		if (err != nil) != c.err || (!c.err && got != c.want) {
			t.Errorf("x=%q: $((x)) = %d, %v; want %d (error %v)", c.val, got, err, c.want, c.err)
		}
	}
}

// TestEvalSimple: the expressions evalSimple answers get what bash's
// parser gives (value and error), the others are left to the parser.
func TestEvalSimple(t *testing.T) {
	vals := []string{"", "0", "7", "123456789012345678", "9223372036854775807", "010", "08", "x", " 5", "1+1"}
	for _, c := range []struct {
		expr string
		ok   bool // evalSimple answers when the value is plain
	}{
		{"i+1", true}, {"i-1", true}, {"i*3", true}, {" i + 1 ", true}, {"i\t*\n2", true}, {"_a1+0", true},
		{"i/2", false}, {"i+08", false}, {"i+0x1", false}, {"i+-1", false}, {"i++1", false}, {"1+i", false},
		{"i[0]+1", false}, {"i+1+1", false}, {"i=1", false}, {"i+", false}, {"i", false}, {"9i+1", false},
	} {
		for _, val := range vals {
			m := mapVars{"i": val, "_a1": val}
			got, ok, err := evalSimple(m, c.expr)
			plain := val == ""
			if !plain {
				_, plain = plainDecimal(val)
			}
			if ok != (c.ok && plain) {
				t.Errorf("%q with %q: answered %v, want %v", c.expr, val, ok, c.ok && plain)
				continue
			}
			if !ok {
				continue
			}
			want, werr := evalParse(mapVars{"i": val, "_a1": val}, c.expr, 0)
			if got != want || (err == nil) != (werr == nil) {
				t.Errorf("%q with %q: %d, %v; the parser: %d, %v", c.expr, val, got, err, want, werr)
			}
		}
	}
	if _, ok, err := evalSimple(errVars{mapVars{}}, "x+1"); !ok || err != errUnbound {
		t.Errorf("an error of Vars: %v, %v", ok, err)
	}
}
