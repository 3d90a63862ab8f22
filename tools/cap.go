package tools

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// DefaultResultCapChars is how many characters of text a result keeps by
// default (lifecycle.BuiltinToolResultCapChars): past it, CapText keeps the
// start and the end and marks the cut in the middle.
const DefaultResultCapChars = 30000

// cutSnap is how far CapText moves a cut to land on a line break.
const cutSnap = 200

// CapText returns s if it has at most limit characters (runes); else its
// start and its end, about limit characters together, with the cut marked
// in the middle as "\n... [N characters cut] ...\n". Cuts move to a line
// break when one is near. limit <= 0 means no cap.
func CapText(s string, limit int) string {
	if limit <= 0 || len(s) <= limit {
		return s
	}
	n := utf8.RuneCountInString(s)
	if n <= limit {
		return s
	}
	headRunes := limit / 2
	tailRunes := limit - headRunes
	head := byteOffset(s, headRunes)
	tail := byteOffset(s, n-tailRunes)
	// Land the head's end after a line break, the tail's start after one.
	if i := strings.LastIndexByte(s[:head], '\n'); i >= 0 && head-i-1 <= cutSnap {
		head = i + 1
	}
	if i := strings.IndexByte(s[tail:], '\n'); i >= 0 && i < cutSnap && tail+i+1 < len(s) {
		tail += i + 1
	}
	cut := utf8.RuneCountInString(s[head:tail])
	return strings.TrimSuffix(s[:head], "\n") + fmt.Sprintf("\n... [%d characters cut] ...\n", cut) + s[tail:]
}

// byteOffset returns the byte offset of the rune at index r of s.
func byteOffset(s string, r int) int {
	if r <= 0 {
		return 0
	}
	i := 0
	for off := range s {
		if i == r {
			return off
		}
		i++
	}
	return len(s)
}

// capPair caps two outputs (stdout and stderr) to limit characters together:
// each keeps all of itself if that fits, and stderr keeps at least a
// quarter of the room when both are long.
func capPair(out, errOut string, limit int) (string, string) {
	if limit <= 0 {
		return out, errOut
	}
	no, ne := utf8.RuneCountInString(out), utf8.RuneCountInString(errOut)
	if no+ne <= limit {
		return out, errOut
	}
	errRoom := min(ne, max(limit/4, limit-no))
	return CapText(out, limit-errRoom), CapText(errOut, errRoom)
}
