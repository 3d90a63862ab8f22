package jq

import (
	"encoding/json"
	"io"
	"reflect"
	"sort"
)

// jqKeyOrder remembers the key order of the objects read from the input,
// by the identity of their maps, so that an object that comes out as it
// went in (jq ., jq .a) keeps its keys in the input's order as jq does.
// Objects gojq builds or changes are new maps and come out sorted.
type jqKeyOrder struct {
	order map[uintptr][]string
}

func newJqKeyOrder() *jqKeyOrder { return &jqKeyOrder{order: map[uintptr][]string{}} }

// decode reads one JSON value (numbers as json.Number), recording the
// order of each object's keys.
func (o *jqKeyOrder) decode(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	return o.value(dec, tok)
}

func (o *jqKeyOrder) value(dec *json.Decoder, tok json.Token) (any, error) {
	v, err := o.valueOf(dec, tok)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF // EOF inside an array or object
	}
	return v, err
}

func (o *jqKeyOrder) valueOf(dec *json.Decoder, tok json.Token) (any, error) {
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := map[string]any{}
			var keys []string
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				vt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := o.value(dec, vt)
				if err != nil {
					return nil, err
				}
				if _, dup := m[k]; !dup {
					keys = append(keys, k)
				}
				m[k] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			if len(keys) > 1 {
				o.order[reflect.ValueOf(m).Pointer()] = keys
			}
			return m, nil
		case '[':
			a := []any{}
			for dec.More() {
				vt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := o.value(dec, vt)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return a, nil
		}
	}
	return tok, nil
}

// keys returns m's keys in their input order when m is an input object,
// else sorted.
func (o *jqKeyOrder) keys(m map[string]any) []string {
	if o != nil {
		if keys, ok := o.order[reflect.ValueOf(m).Pointer()]; ok && len(keys) == len(m) {
			same := true
			for _, k := range keys {
				if _, ok := m[k]; !ok {
					same = false
					break
				}
			}
			if same {
				return keys
			}
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
