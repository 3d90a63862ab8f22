package tools

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestEmitWriterKeepsRunesWhole(t *testing.T) {
	var pieces []string
	w := newEmitWriter("stdout", func(stream, text string) {
		assert.Equal(t, "stdout", stream)
		pieces = append(pieces, text)
	})
	s := []byte("héllo wörld ✓ 😀!")
	for i := range s {
		_, _ = w.Write(s[i : i+1]) // one byte at a time
	}
	w.flush()
	for _, p := range pieces {
		assert.True(t, utf8.ValidString(p), "%q", p)
	}
	assert.Equal(t, string(s), strings.Join(pieces, ""))

	pieces = nil
	_, _ = w.Write([]byte("bad \xff byte\xe2"))
	w.flush()
	assert.Equal(t, "bad \uFFFD byte\uFFFD", strings.Join(pieces, ""), "invalid bytes become U+FFFD")

	assert.Nil(t, newEmitWriter("stdout", nil).writer(), "no emit function, no writer")
}

func TestNotes(t *testing.T) {
	assert.Equal(t, "", SystemNote(""))
	assert.Equal(t, "<system>hi</system>\n", SystemNote("hi"))
	assert.Equal(t, "a\nb", joinNotes("", "a", "", "b"))
	env := Env{Note: "fresh"}
	assert.EqualError(t, env.withNote(&Error{Text: "bad"}), "<system>fresh</system>\nbad")
	assert.Equal(t, `'it'\''s'`, shq("it's"))
	assert.Equal(t, "120", seconds(120e9))
	assert.Equal(t, "0.5", seconds(5e8))
}
