package cmdutil

// VersionCompare compares two names as versions, like gnulib's
// filevercmp (sort -V, ls -v): "." and ".." first, then hidden names, then
// the rest; a suffix like ".tar.gz" is compared last; runs of digits
// compare as numbers and '~' sorts before anything, even the end.
func VersionCompare(a, b []byte) int {
	if len(a) == 0 {
		if len(b) == 0 {
			return 0
		}
		return -1
	}
	if len(b) == 0 {
		return 1
	}
	if a[0] == '.' {
		if b[0] != '.' {
			return -1
		}
		adot, bdot := len(a) == 1, len(b) == 1
		if adot || bdot {
			return textBoolInt(bdot) - textBoolInt(adot)
		}
		adotdot := a[1] == '.' && len(a) == 2
		bdotdot := b[1] == '.' && len(b) == 2
		if adotdot || bdotdot {
			return textBoolInt(bdotdot) - textBoolInt(adotdot)
		}
	} else if b[0] == '.' {
		return 1
	}
	ap, bp := versionPrefixLen(a), versionPrefixLen(b)
	onePass := ap == len(a) && bp == len(b)
	if d := versionRevCmp(a[:ap], b[:bp]); d != 0 || onePass {
		return d
	}
	return versionRevCmp(a, b)
}

func textBoolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func versionIsDigit(c byte) bool { return c >= '0' && c <= '9' }
func versionIsAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// versionPrefixLen is the length of s without its file suffix, the
// longest match of (\.[A-Za-z~][A-Za-z0-9~]*)*$.
func versionPrefixLen(s []byte) int {
	n := len(s)
	prefix := 0
	for i := 0; ; {
		if i == n {
			return prefix
		}
		i++
		prefix = i
		for i+1 < n && s[i] == '.' && (versionIsAlpha(s[i+1]) || s[i+1] == '~') {
			for i += 2; i < n && (versionIsAlpha(s[i]) || versionIsDigit(s[i]) || s[i] == '~'); i++ {
			}
		}
	}
}

func versionOrder(s []byte, pos int) int {
	if pos >= len(s) {
		return -1
	}
	c := s[pos]
	switch {
	case versionIsDigit(c):
		return 0
	case versionIsAlpha(c):
		return int(c)
	case c == '~':
		return -2
	}
	return int(c) + 256
}

func versionRevCmp(s1, s2 []byte) int {
	p1, p2 := 0, 0
	for p1 < len(s1) || p2 < len(s2) {
		firstDiff := 0
		for (p1 < len(s1) && !versionIsDigit(s1[p1])) || (p2 < len(s2) && !versionIsDigit(s2[p2])) {
			c1, c2 := versionOrder(s1, p1), versionOrder(s2, p2)
			if c1 != c2 {
				return c1 - c2
			}
			p1++
			p2++
		}
		for p1 < len(s1) && s1[p1] == '0' {
			p1++
		}
		for p2 < len(s2) && s2[p2] == '0' {
			p2++
		}
		for p1 < len(s1) && p2 < len(s2) && versionIsDigit(s1[p1]) && versionIsDigit(s2[p2]) {
			if firstDiff == 0 {
				firstDiff = int(s1[p1]) - int(s2[p2])
			}
			p1++
			p2++
		}
		if p1 < len(s1) && versionIsDigit(s1[p1]) {
			return 1
		}
		if p2 < len(s2) && versionIsDigit(s2[p2]) {
			return -1
		}
		if firstDiff != 0 {
			return firstDiff
		}
	}
	return 0
}
