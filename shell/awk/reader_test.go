package awk

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/iotest"
)

// TestRecordsAcrossReads checks that records come out the same whether the
// input arrives whole or one byte per Read, for every kind of RS.
func TestRecordsAcrossReads(t *testing.T) {
	long := strings.Repeat("x", 200000)
	inputs := []string{
		"a\nb\n\nc",
		"\n\n\npara one\nline two\n\n\n\npara two\n\n",
		"x1y22z333w",
		"a--b----c--",
		long + "\n" + long,
		"",
		"no newline at end",
	}
	programs := []string{
		`{print NR ":" $0 "|" RT}`,
		`BEGIN{RS=""} {print NR ":" $0 "|" NF}`,
		`BEGIN{RS="[0-9]+"} {print NR ":" $0 "|" RT}`,
		`BEGIN{RS="--"} {print NR ":" $0}`,
		`BEGIN{RS="y"} {print NR ":" length($0)}`,
		`BEGIN{RS="\n+"} {print NR ":" length($0) "|" length(RT)}`,
	}
	for _, prog := range programs {
		for _, in := range inputs {
			run := func(oneByte bool) string {
				var r = strings.NewReader(in)
				var out bytes.Buffer
				cfg := Config{Program: prog, Stdout: &out, Stdin: r}
				if oneByte {
					cfg.Stdin = iotest.OneByteReader(strings.NewReader(in))
				}
				if _, err := Run(context.Background(), cfg); err != nil {
					t.Fatalf("%q: %v", prog, err)
				}
				return out.String()
			}
			whole, bytewise := run(false), run(true)
			if whole != bytewise {
				t.Errorf("program %q input %.40q:\nwhole   %.200q\nbytewise %.200q", prog, in, whole, bytewise)
			}
		}
	}
}

func TestParagraphMode(t *testing.T) {
	var out bytes.Buffer
	in := "\n\na b\nc\n\n\n\nd\n"
	_, err := Run(context.Background(), Config{
		Program: `BEGIN{RS=""} {printf "%d[%s]%d ", NR, $0, NF} END{print ""}`,
		Stdin:   strings.NewReader(in), Stdout: &out,
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "1[a b\nc]3 2[d]1 \n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}
