// Package jq is the jq command on gojq, with jq 1.7's output format
// (indentation, key order, number formatting). It registers in
// shell/command from its init.
package jq
