package bc

import (
	"math/big"
	"strings"
)

// num is a bc number: the value i / 10^s, s its scale (digits after the
// point, kept even when they are zeros, as bc keeps them). Zero is never
// negative. Operations truncate toward zero, as GNU bc's do.
type num struct {
	i *big.Int
	s int
	// negZero marks a zero that GNU bc keeps negative (a negative power
	// cut to zero by the scale) and prints as "-0".
	negZero bool
}

var (
	bigTen  = big.NewInt(10)
	pow10s  = makePow10s() // read-only: bc runs concurrently in one process
	numZero = num{i: new(big.Int)}
	numOne  = num{i: big.NewInt(1)}
)

// makePow10s is 10^0 ... 10^63.
func makePow10s() []*big.Int {
	t := make([]*big.Int, 64)
	for n := range t {
		t[n] = new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil)
	}
	return t
}

// pow10 returns 10^n (n >= 0); the value must not be changed.
func pow10(n int) *big.Int {
	if n >= 0 && n < len(pow10s) {
		return pow10s[n]
	}
	return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil)
}

func intNum(v int64) num { return num{i: big.NewInt(v)} }

func (a num) isZero() bool { return a.i.Sign() == 0 }
func (a num) isNeg() bool  { return a.i.Sign() < 0 }

// rescale returns a with scale s, truncating (or padding with zeros).
func (a num) rescale(s int) num {
	switch {
	case s == a.s:
		return a
	case s > a.s:
		return num{i: new(big.Int).Mul(a.i, pow10(s-a.s)), s: s}
	default:
		return num{i: new(big.Int).Quo(a.i, pow10(a.s-s)), s: s}
	}
}

// intPart is a's integer part (toward zero) as a big.Int.
func (a num) intPart() *big.Int {
	if a.s == 0 {
		return a.i
	}
	return new(big.Int).Quo(a.i, pow10(a.s))
}

// length is GNU's n_len: the digits of the integer part, at least 1.
func (a num) length() int {
	ip := a.intPart()
	if ip.Sign() == 0 {
		return 1
	}
	return len(new(big.Int).Abs(ip).String())
}

func add(a, b num) num {
	s := max(a.s, b.s)
	return num{i: new(big.Int).Add(a.rescale(s).i, b.rescale(s).i), s: s}
}

func sub(a, b num) num {
	s := max(a.s, b.s)
	return num{i: new(big.Int).Sub(a.rescale(s).i, b.rescale(s).i), s: s}
}

func cmp(a, b num) int {
	// A negative zero is below every non-negative number, as its sign
	// decides first in GNU's bc_compare.
	if an, bn := a.isNeg() || a.negZero, b.isNeg() || b.negZero; an != bn {
		if an {
			return -1
		}
		return 1
	}
	s := max(a.s, b.s)
	return a.rescale(s).i.Cmp(b.rescale(s).i)
}

func neg(a num) num { return num{i: new(big.Int).Neg(a.i), s: a.s} }

// mul is a*b with the scale min(a.s+b.s, max(scale, a.s, b.s)).
func mul(a, b num, scale int) num {
	p := num{i: new(big.Int).Mul(a.i, b.i), s: a.s + b.s}
	return p.rescale(min(a.s+b.s, max(scale, a.s, b.s)))
}

// div is a/b truncated to scale digits; ok is false when b is zero.
func div(a, b num, scale int) (num, bool) {
	if b.isZero() {
		return num{}, false
	}
	n := new(big.Int).Mul(a.i, pow10(scale+b.s))
	d := new(big.Int).Mul(b.i, pow10(a.s))
	return num{i: n.Quo(n, d), s: scale}, true
}

// mod is a - (a/b)*b with a/b at scale, at the scale max(a.s, b.s+scale).
func mod(a, b num, scale int) (num, bool) {
	q, ok := div(a, b, scale)
	if !ok {
		return num{}, false
	}
	rs := max(a.s, b.s+scale)
	return sub(a, mul(q, b, rs)).rescale(rs), true
}

// raise is a^e for an integer e (GNU's bc_raise): exact for e >= 0,
// then cut to min(a.s*e, max(scale, a.s)); 1/a^-e at scale for e < 0.
// ok is false for 0 to a negative power.
func raise(a num, e int64, scale int) (num, bool) {
	if e == 0 {
		return numOne, true
	}
	negExp := e < 0
	if negExp {
		e = -e
	}
	p := num{i: new(big.Int).Exp(a.i, big.NewInt(e), nil), s: a.s * int(e)}
	if negExp {
		return div(numOne, p, scale)
	}
	rs := a.s * int(e)
	r := p.rescale(min(rs, max(scale, a.s)))
	r.negZero = r.isZero() && p.isNeg()
	return r, true
}

// sqrt is GNU's bc_sqrt: Newton's method at growing precision (until
// two guesses differ by at most one unit in the last digit), then cut to
// max(scale, a.s) digits. ok is false for a negative a; stop is polled
// between steps and ends the loop (with ok false) when it returns true.
func sqrt(a num, scale int, stop func() bool) (num, bool) {
	switch c := a.i.Sign(); {
	case c < 0:
		return num{}, false
	case c == 0:
		return numZero, true
	}
	one := cmp(a, numOne)
	if one == 0 {
		return numOne, true
	}
	rscale := max(scale, a.s)
	var guess num
	cscale := 3
	if one < 0 {
		guess = numOne
		cscale = a.s
	} else {
		guess = num{i: new(big.Int).Set(pow10(a.length() / 2))}
	}
	point5 := num{i: big.NewInt(5), s: 1}
	for {
		if stop() {
			return num{}, false
		}
		prev := guess
		q, _ := div(a, guess, cscale)
		guess = mul(add(q, prev), point5, cscale)
		d := sub(guess, prev)
		d = num{i: new(big.Int).Abs(d.i), s: d.s}.rescale(cscale)
		if d.i.Sign() == 0 || d.i.IsInt64() && d.i.Int64() == 1 {
			if cscale < rscale+1 {
				cscale = min(cscale*3, rscale+1)
			} else {
				break
			}
		}
	}
	r, _ := div(guess, numOne, rscale)
	return r, true
}

// toInt64 is GNU's bc_num2long: the integer part, or ok false when it
// does not fit.
func (a num) toInt64() (int64, bool) {
	ip := a.intPart()
	if !ip.IsInt64() {
		return 0, false
	}
	return ip.Int64(), true
}

// String is a in base 10 as bc prints it (no line breaking).
func (a num) String() string {
	var b strings.Builder
	a.format(10, func(c byte) { b.WriteByte(c) }, func() bool { return false })
	return b.String()
}

const hexDigits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// format writes a in base base through out, as GNU's bc_out_num. It
// stops early (returning false) when stop returns true.
func (a num) format(base int, out func(byte), stop func() bool) bool {
	if a.isZero() {
		if a.negZero {
			out('-')
		}
		out('0')
		return true
	}
	if a.isNeg() {
		out('-')
	}
	abs := num{i: new(big.Int).Abs(a.i), s: a.s}
	ip := abs.intPart()
	if base == 10 {
		if ip.Sign() != 0 {
			for _, c := range []byte(ip.String()) {
				out(c)
			}
		}
		if a.s > 0 {
			out('.')
			frac := new(big.Int).Sub(abs.i, new(big.Int).Mul(ip, pow10(a.s))).String()
			for k := len(frac); k < a.s; k++ {
				out('0')
			}
			for _, c := range []byte(frac) {
				out(c)
			}
		}
		return true
	}
	width := len(itoa(base - 1))
	digit := func(d int, space bool) {
		if base <= 16 {
			out(hexDigits[d])
			return
		}
		if space {
			out(' ')
		}
		s := itoa(d)
		for k := len(s); k < width; k++ {
			out('0')
		}
		for _, c := range []byte(s) {
			out(c)
		}
	}
	if ip.Sign() != 0 {
		var digits []int
		bb := big.NewInt(int64(base))
		rest := new(big.Int).Set(ip)
		m := new(big.Int)
		for rest.Sign() != 0 {
			if len(digits)&255 == 255 && stop() {
				return false
			}
			rest.QuoRem(rest, bb, m)
			digits = append(digits, int(m.Int64()))
		}
		for k := len(digits) - 1; k >= 0; k-- {
			digit(digits[k], true)
		}
	}
	if a.s > 0 {
		out('.')
		frac := sub(abs, num{i: ip})
		bn := intNum(int64(base))
		t := numOne
		first := true
		for k := 0; t.length() <= a.s; k++ {
			if k&255 == 255 && stop() {
				return false
			}
			frac = mul(frac, bn, a.s)
			d, _ := frac.toInt64()
			frac = sub(frac, intNum(d))
			digit(int(d), !first)
			first = false
			t = mul(t, bn, 0)
		}
	}
	return true
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }
