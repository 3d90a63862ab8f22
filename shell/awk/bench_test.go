package awk

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"
)

var benchInput = func() []byte {
	var b bytes.Buffer
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&b, "key%d %d some text here\n", i%100, i)
	}
	return b.Bytes()
}()

func benchRun(b *testing.B, prog string) {
	b.SetBytes(int64(len(benchInput)))
	for i := 0; i < b.N; i++ {
		cfg := Config{Program: prog, Stdin: bytes.NewReader(benchInput), Stdout: io.Discard}
		if _, err := Run(context.Background(), cfg); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSum(b *testing.B)    { benchRun(b, `{s+=$2} END{print s}`) }
func BenchmarkCount(b *testing.B)  { benchRun(b, `{a[$1]++} END{for(k in a) n++; print n}`) }
func BenchmarkPrint(b *testing.B)  { benchRun(b, `{print $3, $1}`) }
func BenchmarkRegex(b *testing.B)  { benchRun(b, `/key9[0-9]/{n++} END{print n}`) }
func BenchmarkGsub(b *testing.B)   { benchRun(b, `{gsub(/e/, "E")} END{print}`) }
func BenchmarkPrintf(b *testing.B) { benchRun(b, `{printf "%-10s %8.2f\n", $1, $2}`) }
