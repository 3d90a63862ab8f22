package tools

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ptr[T any](v T) *T { return &v }

func TestParseEditorInput(t *testing.T) {
	in, err := ParseEditorInput(json.RawMessage(`{"command":"insert","path":"a","insert_line":3,"insert_text":"x","new_str":"y","extra":true}`))
	require.NoError(t, err)
	assert.Equal(t, EditorInput{Command: "insert", Path: "a", InsertLine: ptr(3), InsertText: ptr("x"), NewStr: ptr("y")}, in)

	in, err = ParseEditorInput(json.RawMessage(`{"command":"view","path":"a","view_range":"[2, -1]","insert_line":"4"}`))
	require.NoError(t, err)
	assert.Equal(t, []int{2, -1}, in.ViewRange)
	assert.Equal(t, 4, *in.InsertLine)

	in, err = ParseEditorInput(json.RawMessage(`{"command":"view","path":"a","view_range":[1.0, 5],"old_str":null}`))
	require.NoError(t, err)
	assert.Equal(t, []int{1, 5}, in.ViewRange)
	assert.Nil(t, in.OldStr, "null is absent")

	in, err = ParseEditorInput(json.RawMessage(`{"command":"str_replace","path":"a","old_str":"","new_str":42}`))
	require.NoError(t, err)
	assert.Equal(t, ptr(""), in.OldStr, "empty is not absent")
	assert.Equal(t, ptr("42"), in.NewStr)

	_, err = ParseEditorInput(json.RawMessage(`{"command":"view","path":"a","view_range":[1.5, 2]}`))
	assert.EqualError(t, err, "Invalid `view_range`. It should be a list of two integers.")
	_, err = ParseEditorInput(json.RawMessage(`{"command":"insert","path":"a","insert_line":"x"}`))
	assert.EqualError(t, err, "Invalid `insert_line` parameter: \"x\". It should be an integer.")
	_, err = ParseEditorInput(json.RawMessage(`{"command":"view","path":{"a":1}}`))
	assert.EqualError(t, err, "Parameter `path` should be a string.")
	_, err = ParseEditorInput(json.RawMessage(`[]`))
	var te *Error
	assert.ErrorAs(t, err, &te)
}

func TestParseBashAndCodeInput(t *testing.T) {
	in, err := ParseBashInput(json.RawMessage(`{"command":"ls","restart":"true"}`))
	require.NoError(t, err)
	assert.Equal(t, BashInput{Command: "ls", Restart: true}, in)
	in, err = ParseBashInput(nil)
	require.NoError(t, err)
	assert.Equal(t, BashInput{}, in)
	_, err = ParseBashInput(json.RawMessage(`{"restart":"maybe"}`))
	assert.EqualError(t, err, "Parameter `restart` should be true or false.")

	c, err := ParseCodeInput(json.RawMessage(`{"language":"JS","code":"1"}`))
	require.NoError(t, err)
	assert.Equal(t, CodeInput{Language: "JS", Code: "1"}, c)
	assert.Equal(t, JavaScript, NormalizeLanguage(c.Language))
	assert.Equal(t, Python, NormalizeLanguage(""))
	assert.Equal(t, Python, NormalizeLanguage("Python3"))
	assert.Equal(t, "", NormalizeLanguage("ruby"))
}

func TestMediaType(t *testing.T) {
	for name, want := range map[string]string{
		"chart.png": "image/png", "out/PLOT.JPG": "image/jpeg", "data.csv": "text/csv", "r.json": "application/json",
		"doc.pdf": "application/pdf", "x.svg": "image/svg+xml", "a.tar.gz": "application/gzip",
		"README": "application/octet-stream", "x.weird": "application/octet-stream",
	} {
		assert.Equal(t, want, MediaType(name), name)
	}
}
