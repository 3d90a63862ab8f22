package tools

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// The inputs come from models, which are not always exact about types: a
// number sent as "12", a range sent as the string "[1, 20]", a boolean as
// "true". The parsers take those, ignore unknown fields, and answer what
// they cannot read with an *Error that names the parameter.

// ParseBashInput reads the bash tool's input.
func ParseBashInput(raw json.RawMessage) (BashInput, error) {
	var in BashInput
	f, err := fields(raw)
	if err != nil {
		return in, err
	}
	if in.Command, err = f.str("command"); err != nil {
		return in, err
	}
	in.Restart, err = f.boolean("restart")
	return in, err
}

// ParseCodeInput reads the code_execution tool's input.
func ParseCodeInput(raw json.RawMessage) (CodeInput, error) {
	var in CodeInput
	f, err := fields(raw)
	if err != nil {
		return in, err
	}
	if in.Language, err = f.str("language"); err != nil {
		return in, err
	}
	in.Code, err = f.str("code")
	return in, err
}

// ParseEditorInput reads the text editor's input.
func ParseEditorInput(raw json.RawMessage) (EditorInput, error) {
	var in EditorInput
	f, err := fields(raw)
	if err != nil {
		return in, err
	}
	if in.Command, err = f.str("command"); err != nil {
		return in, err
	}
	if in.Path, err = f.str("path"); err != nil {
		return in, err
	}
	for name, dst := range map[string]**string{"file_text": &in.FileText, "old_str": &in.OldStr, "new_str": &in.NewStr, "insert_text": &in.InsertText} {
		if *dst, err = f.optStr(name); err != nil {
			return in, err
		}
	}
	if v, ok := f.get("insert_line"); ok {
		n, ok := intOf(v)
		if !ok {
			return in, errorf("Invalid `insert_line` parameter: %s. It should be an integer.", strings.TrimSpace(string(v)))
		}
		in.InsertLine = &n
	}
	if v, ok := f.get("view_range"); ok {
		r, ok := rangeOf(v)
		if !ok {
			return in, errorf("Invalid `view_range`. It should be a list of two integers.")
		}
		in.ViewRange = r
	}
	return in, nil
}

type inputFields map[string]json.RawMessage

func fields(raw json.RawMessage) (inputFields, error) {
	f := inputFields{}
	if len(bytes.TrimSpace(raw)) == 0 {
		return f, nil
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, errorf("The input is not a JSON object: %v", err)
	}
	return f, nil
}

// get returns a field that is present and not null.
func (f inputFields) get(name string) (json.RawMessage, bool) {
	v, ok := f[name]
	if !ok || string(bytes.TrimSpace(v)) == "null" {
		return nil, false
	}
	return v, true
}

func (f inputFields) optStr(name string) (*string, error) {
	v, ok := f.get(name)
	if !ok {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		// A number or a boolean where text belongs: take its JSON form.
		if t := strings.TrimSpace(string(v)); t != "" && t[0] != '{' && t[0] != '[' {
			return &t, nil
		}
		return nil, errorf("Parameter `%s` should be a string.", name)
	}
	return &s, nil
}

func (f inputFields) str(name string) (string, error) {
	s, err := f.optStr(name)
	if s == nil {
		return "", err
	}
	return *s, err
}

func (f inputFields) boolean(name string) (bool, error) {
	v, ok := f.get(name)
	if !ok {
		return false, nil
	}
	var b bool
	if json.Unmarshal(v, &b) == nil {
		return b, nil
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		if b, err := strconv.ParseBool(strings.TrimSpace(s)); err == nil {
			return b, nil
		}
	}
	return false, errorf("Parameter `%s` should be true or false.", name)
}

// intOf reads an integer: 12, 12.0 or "12".
func intOf(v json.RawMessage) (int, bool) {
	var s string
	if json.Unmarshal(v, &s) == nil {
		v = json.RawMessage(strings.TrimSpace(s))
	}
	var f float64
	if json.Unmarshal(v, &f) != nil || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		return 0, false
	}
	return int(f), true
}

// rangeOf reads a list of integers: [1, 20], or the string "[1, 20]".
func rangeOf(v json.RawMessage) ([]int, bool) {
	var s string
	if json.Unmarshal(v, &s) == nil {
		s = strings.TrimSpace(s)
		if !strings.HasPrefix(s, "[") {
			s = "[" + s + "]"
		}
		v = json.RawMessage(s)
	}
	var items []json.RawMessage
	if json.Unmarshal(v, &items) != nil {
		return nil, false
	}
	r := make([]int, len(items))
	for i, it := range items {
		n, ok := intOf(it)
		if !ok {
			return nil, false
		}
		r[i] = n
	}
	return r, true
}
