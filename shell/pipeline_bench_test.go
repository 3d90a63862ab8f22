package shell

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/spf13/afero"
)

// BenchmarkPipeline runs issue 19's 5-stage pipeline (and its prefixes,
// to see what each stage adds). Under GOOS=wasip1 it measures the shell
// as busybox.wasm runs it.
func BenchmarkPipeline(b *testing.B) {
	cases := []struct{ name, script string }{
		{"echo", "echo hi"},
		{"true5", "true | true | true | true | true"},
		{"seq", "seq 1 10000 >/dev/null"},
		{"seq_cat", "seq 1 10000 | cat >/dev/null"},
		{"seq_grep", "seq 1 10000 | grep 7 >/dev/null"},
		{"seq_grep_sort", "seq 1 10000 | grep 7 | sort -r >/dev/null"},
		{"seq_grep_sort_uniq", "seq 1 10000 | grep 7 | sort -r | uniq >/dev/null"},
		{"all", "seq 1 10000 | grep 7 | sort -r | uniq | wc -l"},
		{"cat_file", "cat /in >/dev/null"},
		{"cat_file_pipe", "cat /in | cat >/dev/null"},
		{"grep_file", "grep 7 /in >/dev/null"},
		{"sort_file", "sort -r /g >/dev/null"},
		{"uniq_file", "uniq /s >/dev/null"},
		{"wc_file", "wc -l /u >/dev/null"},
	}
	if s := os.Getenv("PIPELINE_BENCH"); s != "" {
		cases = cases[:0]
		cases = append(cases, struct{ name, script string }{"env", s})
	}
	benchScripts(b, "seq 1 10000 >/in; grep 7 /in >/g; sort -r /g >/s; uniq /s >/u", cases)
}

// benchScripts runs setup once in a new memory FS, then each case's
// script as a sub-benchmark, a new shell per run.
func benchScripts(b *testing.B, setup string, cases []struct{ name, script string }) {
	fsys := afero.NewMemMapFs()
	ctx := context.Background()
	if code, err := Run(ctx, setup, Options{FS: fsys}); err != nil || code != 0 {
		b.Fatal(code, err)
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var out bytes.Buffer
			for b.Loop() {
				out.Reset()
				code, err := Run(ctx, c.script, Options{FS: fsys, Stdout: &out, Stderr: &out})
				if err != nil || code != 0 {
					b.Fatal(code, err, out.String())
				}
			}
		})
	}
}

// BenchmarkSubshell measures what a subshell and an external command
// cost the shell itself: a command substitution per iteration (a copy
// of the shell's state each), a loop of an external command (its $PATH
// search), and a shell started for one builtin.
func BenchmarkSubshell(b *testing.B) {
	cases := []struct{ name, script string }{
		{"echo", "echo hi"},
		{"subst100", "for i in $(seq 100); do x=$(echo $i); done"},
		{"ls5", "for f in a b c d e; do ls /tmp >/dev/null; done"},
	}
	benchScripts(b, "mkdir -p /tmp && touch /tmp/a /tmp/b", cases)
}
