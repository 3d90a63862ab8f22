package bc

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// randomProgram is a program of n random expression statements (seeded:
// the same seed gives the same program).
func randomProgram(seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, 17))
	number := func() string {
		var b strings.Builder
		if r.IntN(4) == 0 {
			b.WriteString("-")
		}
		if r.IntN(3) > 0 {
			fmt.Fprintf(&b, "%d", r.IntN([]int{10, 1000, 1000000000}[r.IntN(3)]))
		}
		if r.IntN(2) == 0 || b.Len() == 0 || b.String() == "-" {
			b.WriteString(".")
			for k := r.IntN(8) + 1; k > 0; k-- {
				b.WriteByte(byte('0' + r.IntN(10)))
			}
		}
		return "(" + b.String() + ")"
	}
	var expr func(depth int) string
	expr = func(depth int) string {
		if depth == 0 || r.IntN(3) == 0 {
			return number()
		}
		switch r.IntN(10) {
		case 0:
			return "sqrt(" + strings.ReplaceAll(expr(depth-1), "-", "") + ")"
		case 1:
			return fmt.Sprintf("(%s)^%d", expr(depth-1), r.IntN(7)-2)
		case 2:
			return "length(" + expr(depth-1) + ")+scale(" + expr(depth-1) + ")"
		case 3:
			return "(" + expr(depth-1) + []string{"<", "==", ">=", "!=", "&&", "||"}[r.IntN(6)] + expr(depth-1) + ")"
		}
		return "(" + expr(depth-1) + []string{"+", "-", "*", "/", "%"}[r.IntN(5)] + expr(depth-1) + ")"
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch r.IntN(12) {
		case 0:
			fmt.Fprintf(&b, "scale=%d\n", r.IntN(30))
		case 1:
			fmt.Fprintf(&b, "obase=%d\n", []int{2, 3, 8, 10, 10, 16, 20, 100, 1000}[r.IntN(9)])
		}
		b.WriteString(expr(4))
		b.WriteByte('\n')
	}
	return b.String()
}

// TestDifferentialRandom compares this bc and GNU bc on seeded random
// arithmetic in random scales and output bases (with -l for the library
// functions too).
func TestDifferentialRandom(t *testing.T) {
	bin := gnuBC(t)
	for seed := uint64(1); seed <= 12; seed++ {
		prog := randomProgram(seed, 150)
		args := []string{}
		if seed%3 == 0 {
			args = []string{"-l"}
			prog += "s(" + fmt.Sprint(seed) + ".5);c(" + fmt.Sprint(seed) + ");l(" + fmt.Sprint(seed) + ".25);e(" + fmt.Sprint(seed) + ".1);a(" + fmt.Sprint(seed) + ");j(" + fmt.Sprint(seed%4) + ",2.5)\n"
		}
		wantOut, wantErr, wantCode := realBC(t, bin, args, prog, nil, nil)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		out, errs, code, err := runBC(t, ctx, args, prog, nil, nil)
		cancel()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if out != wantOut || errs != wantErr || code != wantCode {
			ol, wl := strings.Split(out, "\n"), strings.Split(wantOut, "\n")
			for i := range min(len(ol), len(wl)) {
				if ol[i] != wl[i] {
					t.Errorf("seed %d: first difference at output line %d: %q, want %q", seed, i+1, ol[i], wl[i])
					break
				}
			}
			t.Errorf("seed %d: stdout equal %v, stderr %q want %q, status %d want %d", seed, out == wantOut, errs, wantErr, code, wantCode)
		}
	}
}
