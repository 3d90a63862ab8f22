// Package cmdtest holds what the command packages' tests share: a Call over
// a fresh MemMapFs (NewCall, Run, RunFS), table tests (Case, RunCases), and
// differential tests against the host's GNU tool (GNUCase, GNUDiff).
package cmdtest
