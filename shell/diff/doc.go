// Package diff holds the diffutils: diff (normal, context, unified and
// recursive output, on a Myers/patience diff) and cmp. They register in
// shell/command from their init.
package diff
