// Package procspec is the wire form of a process the wasm adapter's host
// and its guests hand each other: proc_start's spec (what the busybox
// image's shell, or Python's subprocess, asks the host to start as another
// module instance on the same filesystem) and the warm protocol's request
// (the next command a serving busybox instance runs).
//
// It is JSON, but the strings a process is made of (its arguments,
// environment and folder) travel as bytes (base64 in the JSON), so that
// names that are not UTF-8 arrive as they were: a JSON string would turn
// each such byte into U+FFFD, and `python3 $'\xff.py'` would look for
// another file.
package procspec

import (
	"encoding/json"
	"fmt"
)

// Spec is one process to start.
type Spec struct {
	// Image is "python", "busybox" or "node" (unset in a warm request).
	Image string
	// Args is the argv, the command's name first.
	Args []string
	// Dir is the working folder.
	Dir string
	// Env is the environment as NAME=value.
	Env []string
	// StdinFrom is the handle of another process whose stdout is this
	// one's stdin; 0 is none.
	StdinFrom int32
	// StderrToStdout sends the process's stderr to its stdout.
	StderrToStdout bool
	// Umask is the child's file mode creation mask; nil is 022.
	Umask *uint32
}

// wire is Spec as JSON, its strings as bytes.
type wire struct {
	Image          string   `json:"image"`
	Args           [][]byte `json:"args"`
	Dir            []byte   `json:"dir"`
	Env            [][]byte `json:"env"`
	StdinFrom      int32    `json:"stdinFrom,omitempty"`
	StderrToStdout bool     `json:"stderrToStdout,omitempty"`
	Umask          *uint32  `json:"umask,omitempty"`
}

// MarshalJSON encodes s with its strings as bytes.
func (s Spec) MarshalJSON() ([]byte, error) {
	return json.Marshal(wire{
		Image: s.Image, Args: toBytes(s.Args), Dir: []byte(s.Dir), Env: toBytes(s.Env),
		StdinFrom: s.StdinFrom, StderrToStdout: s.StderrToStdout, Umask: s.Umask,
	})
}

// UnmarshalJSON decodes what MarshalJSON encodes. It checks only the form:
// whether the image and arguments make a process is the starter's to say.
func (s *Spec) UnmarshalJSON(b []byte) error {
	var w wire
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("procspec: %w", err)
	}
	*s = Spec{
		Image: w.Image, Args: toStrings(w.Args), Dir: string(w.Dir), Env: toStrings(w.Env),
		StdinFrom: w.StdinFrom, StderrToStdout: w.StderrToStdout, Umask: w.Umask,
	}
	return nil
}

func toBytes(ss []string) [][]byte {
	if ss == nil {
		return nil
	}
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

func toStrings(bs [][]byte) []string {
	if bs == nil {
		return nil
	}
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = string(b)
	}
	return out
}
