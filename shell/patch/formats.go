package patch

import (
	"fmt"
	"strconv"
	"strings"
)

// Context diffs (diff -c) and normal diffs (diff) are read into the same
// hunks as unified ones: lines marked ' ', '-' and '+'.

// isContextStart tells whether lines[i] starts a context diff's header
// ("*** OLD" then "--- NEW").
func isContextStart(lines []string, i int) bool {
	return strings.HasPrefix(lines[i], "*** ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "--- ") &&
		!strings.HasSuffix(strings.TrimRight(lines[i], "\r\n"), " ****")
}

// parseContext reads the context diff whose header is at lines[i]; it
// returns the file patch and the index of the first line after it.
func parseContext(lines []string, i int) (*filePatch, int, error) {
	fp := &filePatch{oldName: headerName(lines[i][4:]), newName: headerName(lines[i+1][4:]),
		header: lines[i] + lines[i+1], line: i + 1, context: true}
	i += 2
	for i < len(lines) && strings.HasPrefix(lines[i], "***************") {
		start := i
		i++
		if i >= len(lines) {
			return nil, 0, fmt.Errorf("unexpected end of file in patch")
		}
		oldStart, oldEnd, ok := contextRange(lines[i], "*** ", " ****")
		if !ok {
			return nil, 0, fmt.Errorf("malformed patch at line %d: %s", i+1, strings.TrimRight(lines[i], "\n"))
		}
		i++
		var old, neu []string
		var noNLOld, noNLNew bool
		for i < len(lines) && !strings.HasPrefix(lines[i], "--- ") {
			l := strings.TrimSuffix(lines[i], "\n")
			if strings.HasPrefix(l, "\\") {
				noNLOld = true
				i++
				continue
			}
			if len(l) < 2 || !strings.ContainsRune(" -!", rune(l[0])) || l[1] != ' ' {
				if l == "" {
					l = "  "
				} else {
					return nil, 0, fmt.Errorf("malformed patch at line %d: %s", i+1, l)
				}
			}
			old = append(old, l)
			i++
		}
		if i >= len(lines) {
			return nil, 0, fmt.Errorf("unexpected end of file in patch")
		}
		newStart, newEnd, ok := contextRange(lines[i], "--- ", " ----")
		if !ok {
			return nil, 0, fmt.Errorf("malformed patch at line %d: %s", i+1, strings.TrimRight(lines[i], "\n"))
		}
		i++
		wantNew := newEnd - newStart + 1
		if newStart == 0 {
			wantNew = 0
		}
		wantOld := oldEnd - oldStart + 1
		if oldStart == 0 {
			wantOld = 0
		}
		// The new part is there when it has lines to show: as many as its
		// range, or (only context beside removals) none.
		for i < len(lines) && !strings.HasPrefix(lines[i], "***************") && !isContextStart(lines, i) && (len(neu) < wantNew || strings.HasPrefix(lines[i], "\\")) {
			l := strings.TrimSuffix(lines[i], "\n")
			if strings.HasPrefix(l, "\\") {
				noNLNew = true
				i++
				continue
			}
			if len(l) < 2 || !strings.ContainsRune(" +!", rune(l[0])) || l[1] != ' ' {
				if l == "" {
					l = "  "
				} else {
					break
				}
			}
			neu = append(neu, l)
			i++
		}
		h, err := mergeContext(old, neu, wantOld, wantNew)
		if err != nil {
			return nil, 0, fmt.Errorf("malformed patch at line %d: %v", start+1, err)
		}
		h.oldStart, h.oldLines = oldStart, wantOld
		h.newStart, h.newLines = newStart, wantNew
		if wantOld == 0 {
			h.oldStart = oldStart + 1
		}
		h.noNLOld, h.noNLNew = noNLOld, noNLNew
		h.text = strings.Join(lines[start:i], "")
		fp.hunks = append(fp.hunks, h)
	}
	return fp, i, nil
}

// contextRange reads "*** A,B ****" (or "*** A ****").
func contextRange(l, pre, post string) (int, int, bool) {
	l = strings.TrimRight(l, "\r\n")
	if !strings.HasPrefix(l, pre) || !strings.HasSuffix(l, post) {
		return 0, 0, false
	}
	s := strings.TrimSpace(l[len(pre) : len(l)-len(post)])
	a, b, two := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil || start < 0 {
		return 0, 0, false
	}
	end := start
	if two {
		if end, err = strconv.Atoi(b); err != nil || end < start {
			return 0, 0, false
		}
	}
	return start, end, true
}

// mergeContext makes one hunk of a context diff's old and new parts (an
// empty part is the other's context).
func mergeContext(old, neu []string, wantOld, wantNew int) (*hunk, error) {
	if len(old) == 0 {
		for _, l := range neu {
			if l[0] == ' ' {
				old = append(old, l)
			}
		}
	}
	if len(neu) == 0 {
		for _, l := range old {
			if l[0] == ' ' {
				neu = append(neu, l)
			}
		}
	}
	if len(old) != wantOld || len(neu) != wantNew {
		return nil, fmt.Errorf("the hunk's lines do not match its ranges")
	}
	h := &hunk{}
	i, j := 0, 0
	for i < len(old) || j < len(neu) {
		switch {
		case i < len(old) && old[i][0] == '-':
			h.lines = append(h.lines, "-"+old[i][2:])
			i++
		case j < len(neu) && neu[j][0] == '+':
			h.lines = append(h.lines, "+"+neu[j][2:])
			j++
		case i < len(old) && old[i][0] == '!':
			for i < len(old) && old[i][0] == '!' {
				h.lines = append(h.lines, "-"+old[i][2:])
				i++
			}
			for j < len(neu) && neu[j][0] == '!' {
				h.lines = append(h.lines, "+"+neu[j][2:])
				j++
			}
		case j < len(neu) && neu[j][0] == '!':
			for j < len(neu) && neu[j][0] == '!' {
				h.lines = append(h.lines, "+"+neu[j][2:])
				j++
			}
		case i < len(old) && j < len(neu):
			if old[i][2:] != neu[j][2:] {
				return nil, fmt.Errorf("context lines differ")
			}
			h.lines = append(h.lines, " "+old[i][2:])
			i++
			j++
		default:
			return nil, fmt.Errorf("context lines differ")
		}
	}
	return h, nil
}

// normalCommand reads a normal diff's command line ("3c3,4", "5a6",
// "7,8d6").
func normalCommand(l string) (a1, a2 int, op byte, b1, b2 int, ok bool) {
	l = strings.TrimRight(l, "\r\n")
	k := strings.IndexAny(l, "acd")
	if k <= 0 || k == len(l)-1 {
		return 0, 0, 0, 0, 0, false
	}
	rng := func(s string) (int, int, bool) {
		x, y, two := strings.Cut(s, ",")
		p, err := strconv.Atoi(x)
		if err != nil || p < 0 {
			return 0, 0, false
		}
		q := p
		if two {
			if q, err = strconv.Atoi(y); err != nil || q < p {
				return 0, 0, false
			}
		}
		return p, q, true
	}
	var ok1, ok2 bool
	a1, a2, ok1 = rng(l[:k])
	b1, b2, ok2 = rng(l[k+1:])
	return a1, a2, l[k], b1, b2, ok1 && ok2
}

// parseNormal reads a normal diff starting at lines[i] (its first
// command); it returns nil when lines[i] is not one.
func parseNormal(lines []string, i int) (*filePatch, int, error) {
	if _, _, _, _, _, ok := normalCommand(lines[i]); !ok {
		return nil, i, nil
	}
	fp := &filePatch{normal: true, line: i + 1}
	for i < len(lines) {
		a1, a2, op, b1, b2, ok := normalCommand(lines[i])
		if !ok {
			break
		}
		start := i
		i++
		h := &hunk{}
		take := func(mark string, n int, sign string) error {
			for k := 0; k < n; k++ {
				if i >= len(lines) || !strings.HasPrefix(lines[i], mark) {
					return fmt.Errorf("unexpected end of file in patch")
				}
				h.lines = append(h.lines, sign+strings.TrimSuffix(lines[i][len(mark):], "\n"))
				i++
				if i < len(lines) && strings.HasPrefix(lines[i], "\\") {
					if sign == "-" {
						h.noNLOld = true
					} else {
						h.noNLNew = true
					}
					i++
				}
			}
			return nil
		}
		var err error
		switch op {
		case 'a':
			h.oldStart, h.oldLines = a1+1, 0
			h.newStart, h.newLines = b1, b2-b1+1
			err = take("> ", h.newLines, "+")
		case 'd':
			h.oldStart, h.oldLines = a1, a2-a1+1
			h.newStart, h.newLines = b1+1, 0
			err = take("< ", h.oldLines, "-")
		case 'c':
			h.oldStart, h.oldLines = a1, a2-a1+1
			h.newStart, h.newLines = b1, b2-b1+1
			if err = take("< ", h.oldLines, "-"); err == nil {
				if i >= len(lines) || strings.TrimRight(lines[i], "\r\n") != "---" {
					err = fmt.Errorf("malformed patch at line %d", i+1)
				} else {
					i++
					err = take("> ", h.newLines, "+")
				}
			}
		}
		if err != nil {
			return nil, 0, err
		}
		h.text = strings.Join(lines[start:i], "")
		fp.hunks = append(fp.hunks, h)
	}
	return fp, i, nil
}
