package awk

import (
	"math"
	"strconv"
	"strings"
)

type kind uint8

const (
	kUninit kind = iota // never assigned: "" and 0 at once
	kNum
	kStr
	kStrNum // from input (fields, getline, -v, ARGV...): numeric if it looks so
)

// value is an awk scalar.
type value struct {
	k kind
	s string
	n float64
}

func num(n float64) value   { return value{k: kNum, n: n} }
func str(s string) value    { return value{k: kStr, s: s} }
func strnum(s string) value { return value{k: kStrNum, s: s} }

func boolNum(b bool) value {
	if b {
		return value{k: kNum, n: 1}
	}
	return value{k: kNum}
}

// toStrFmt converts to a string, numbers through format (CONVFMT).
func (v value) toStrFmt(format string) string {
	if v.k == kNum {
		return formatNum(v.n, format)
	}
	return v.s
}

// isTrue is the value's truth.
func (v value) isTrue() bool {
	switch v.k {
	case kNum:
		return v.n != 0
	case kStr:
		return v.s != ""
	case kStrNum:
		if n, ok := looksNumeric(v.s); ok {
			return n != 0
		}
		return v.s != ""
	}
	return false
}

// toNum converts to a number, as strtod on the string's longest numeric
// prefix.
func (v value) toNum() float64 {
	switch v.k {
	case kNum:
		return v.n
	case kStr, kStrNum:
		return strToNum(v.s)
	}
	return 0
}

// numeric tells whether v compares as a number, and its value.
func (v value) numeric() (float64, bool) {
	switch v.k {
	case kNum:
		return v.n, true
	case kUninit:
		return 0, true
	case kStrNum:
		return looksNumeric(v.s)
	}
	return 0, false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// numPrefix returns the length of the decimal number at the start of s
// (after leading blanks are skipped by the caller), or 0.
func numPrefix(s string) int {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			i = j
		}
	}
	return i
}

// infNaN recognises gawk's signed "+inf", "-inf", "+nan", "-nan".
func infNaN(s string) (float64, int) {
	if len(s) < 4 || (s[0] != '+' && s[0] != '-') {
		return 0, 0
	}
	w := strings.ToLower(s[1:4])
	neg := s[0] == '-'
	switch w {
	case "inf":
		if neg {
			return math.Inf(-1), 4
		}
		return math.Inf(1), 4
	case "nan":
		n := math.NaN()
		if neg {
			n = math.Copysign(n, -1)
		}
		return n, 4
	}
	return 0, 0
}

func strToNum(s string) float64 {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	s = s[i:]
	n := numPrefix(s)
	if n == 0 {
		if v, n := infNaN(s); n > 0 {
			return v
		}
		return 0
	}
	f, err := strconv.ParseFloat(s[:n], 64)
	if err != nil {
		// Out of range: ParseFloat returns ±Inf or 0 with the error.
		return f
	}
	return f
}

// looksNumeric tells whether s is, blanks aside, wholly a decimal number
// (the strnum rule).
func looksNumeric(s string) (float64, bool) {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	if i == j {
		return 0, false
	}
	t := s[i:j]
	n := numPrefix(t)
	if n != len(t) {
		if v, m := infNaN(t); m == len(t) {
			return v, true
		}
		return 0, false
	}
	// Fast path for small integers.
	if len(t) < 16 {
		neg := false
		k := 0
		if t[0] == '-' || t[0] == '+' {
			neg = t[0] == '-'
			k = 1
		}
		var x int64
		ok := k < len(t)
		for ; k < len(t); k++ {
			if !isDigit(t[k]) {
				ok = false
				break
			}
			x = x*10 + int64(t[k]-'0')
		}
		if ok {
			if neg {
				x = -x
			}
			return float64(x), true
		}
	}
	f, _ := strconv.ParseFloat(t, 64)
	return f, true
}

// formatNum turns a number into a string with format fmt (CONVFMT or
// OFMT); integral values print as integers.
func formatNum(n float64, format string) string {
	if n == math.Trunc(n) && !math.IsInf(n, 0) {
		if n > -1e18 && n < 1e18 {
			return strconv.FormatInt(int64(n), 10)
		}
		return strconv.FormatFloat(n, 'f', 0, 64)
	}
	if math.IsNaN(n) {
		if math.Signbit(n) {
			return "-nan"
		}
		return "nan"
	}
	if math.IsInf(n, 1) {
		return "inf"
	}
	if math.IsInf(n, -1) {
		return "-inf"
	}
	if format == "%.6g" {
		return strconv.FormatFloat(n, 'g', 6, 64)
	}
	return sprintfNum(format, n)
}
