package tools

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestCapTextKeepsStartAndEnd(t *testing.T) {
	assert.Equal(t, "short", CapText("short", 10))
	assert.Equal(t, "exactly10!", CapText("exactly10!", 10))
	assert.Equal(t, "no cap", CapText("no cap", 0))
	assert.Equal(t, "abcde\n... [10 characters cut] ...\npqrst", CapText("abcdefghijklmnopqrst", 10))

	// Multi-byte characters count as one and are never split.
	s := strings.Repeat("é", 30)
	got := CapText(s, 10)
	assert.True(t, utf8.ValidString(got))
	assert.Equal(t, strings.Repeat("é", 5)+"\n... [20 characters cut] ...\n"+strings.Repeat("é", 5), got)
}

func TestCapTextCutsAtLineBreaks(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 1000; i++ {
		b.WriteString("line ")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString("\n")
	}
	s := b.String()
	got := CapText(s, 500)
	head, rest, ok := strings.Cut(got, "\n... [")
	assert.True(t, ok)
	_, tail, ok := strings.Cut(rest, "] ...\n")
	assert.True(t, ok)
	assert.True(t, strings.HasPrefix(s, head+"\n"), "the start is kept whole up to a line break")
	assert.True(t, strings.HasSuffix(s, tail))
	assert.True(t, strings.HasPrefix(tail, "line "), "the end starts at a line")
	assert.InDelta(t, 500, utf8.RuneCountInString(head)+utf8.RuneCountInString(tail), 2*cutSnap)
	assert.Contains(t, got, "characters cut] ...\n")
}

func TestCapPairSharesTheRoom(t *testing.T) {
	out, errOut := capPair("small", "tiny", 100)
	assert.Equal(t, "small", out)
	assert.Equal(t, "tiny", errOut)

	long := strings.Repeat("o", 1000)
	out, errOut = capPair(long, "an error", 100)
	assert.Equal(t, "an error", errOut, "a short stderr is kept whole")
	assert.Less(t, utf8.RuneCountInString(out), 150)

	out, errOut = capPair(long, strings.Repeat("e", 1000), 100)
	assert.Contains(t, out, "characters cut")
	assert.Contains(t, errOut, "characters cut")
	assert.Less(t, len(errOut), 80, "both long: stderr gets a quarter")
}

func TestClipIsTheReferenceTruncation(t *testing.T) {
	assert.Equal(t, "abc", clip("abc", 3))
	assert.Equal(t, "ab"+ClippedNotice, clip("abc", 2))
	assert.Equal(t, "éé"+ClippedNotice, clip("ééé", 2))
}
