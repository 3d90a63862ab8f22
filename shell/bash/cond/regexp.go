package cond

import (
	"regexp"
	"strings"
)

// Regexp compiles the right side of [[ s =~ re ]], its quoted parts
// already escaped, as bash's regcomp (a POSIX ERE) reads it: false when
// glibc refuses it (bash's status 2, no message). With nocase
// (nocasematch) it matches without regard to case.
func Regexp(expr string, nocase bool) (*regexp.Regexp, bool) {
	expr, ok := posixERE(expr)
	if !ok {
		return nil, false
	}
	if nocase {
		expr = "(?i)" + expr
	}
	re, err := regexp.CompilePOSIX(expr)
	if err != nil {
		re, err = regexp.Compile(expr)
		if err != nil {
			return nil, false
		}
	}
	return re, true
}

// posixERE checks expr as glibc's regcomp does where Go's regexp does
// not (an unescaped { must begin an interval {n}, {n,}, {,m} or {n,m}
// after something it can repeat) and writes {,m} as Go's {0,m}.
func posixERE(expr string) (string, bool) {
	if !strings.Contains(expr, "{") {
		return expr, true
	}
	var zeros []int // where {,m} needs its 0
	atom := false
	for i := 0; i < len(expr); i++ {
		switch c := expr[i]; c {
		case '\\':
			i++
			atom = true
		case '[':
			j := i + 1
			if j < len(expr) && expr[j] == '^' {
				j++
			}
			if j < len(expr) && expr[j] == ']' {
				j++
			}
			for j < len(expr) && expr[j] != ']' {
				if expr[j] == '[' && j+1 < len(expr) && strings.IndexByte(":.=", expr[j+1]) >= 0 {
					if k := strings.Index(expr[j+2:], string(expr[j+1])+"]"); k >= 0 {
						j += k + 4
						continue
					}
				}
				j++
			}
			i = j
			atom = true
		case '(', '|', '^':
			atom = false
		case '{':
			if !atom {
				return "", false
			}
			j := i + 1
			for j < len(expr) && (expr[j] >= '0' && expr[j] <= '9' || expr[j] == ',') {
				j++
			}
			if j == i+1 || j >= len(expr) || expr[j] != '}' || strings.Count(expr[i+1:j], ",") > 1 {
				return "", false
			}
			if expr[i+1] == ',' {
				zeros = append(zeros, i+1)
			}
			i = j
		default:
			atom = true
		}
	}
	for k := len(zeros) - 1; k >= 0; k-- {
		expr = expr[:zeros[k]] + "0" + expr[zeros[k]:]
	}
	return expr, true
}
