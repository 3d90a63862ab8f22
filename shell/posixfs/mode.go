package posixfs

import (
	"strconv"
	"strings"
)

// fsApplyMode applies chmod's mode spec to the Unix bits old of a file
// (a folder when isDir) and reports whether spec is valid. Symbolic
// clauses without [ugoa] leave the umask's bits alone, as chmod does.
func ApplyMode(spec string, old uint32, isDir bool) (uint32, bool) {
	return ApplyModeMask(spec, old, isDir, DefaultUmask)
}

// fsApplyModeMask is fsApplyMode under the umask umask, which a clause
// without a who ("+x") leaves alone.
func ApplyModeMask(spec string, old uint32, isDir bool, umask uint32) (uint32, bool) {
	if spec == "" {
		return old, false
	}
	if fsAllOctal(spec) {
		if len(spec) > 4 {
			return old, false
		}
		v, _ := strconv.ParseUint(spec, 8, 32)
		bits := uint32(v)
		if isDir && len(spec) <= 3 {
			bits |= old & 0o6000 // folders keep setuid/setgid unless given
		}
		return bits, true
	}
	cur := old
	for _, clause := range strings.Split(spec, ",") {
		i := 0
		var who uint32
		for i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0 {
			switch clause[i] {
			case 'u':
				who |= 0o4700
			case 'g':
				who |= 0o2070
			case 'o':
				who |= 0o1007
			case 'a':
				who |= 0o7777
			}
			i++
		}
		mask := uint32(0o7777)
		if who == 0 {
			who = 0o7777
			mask = ^umask
		}
		if i >= len(clause) {
			return old, false
		}
		for i < len(clause) {
			op := clause[i]
			if op != '+' && op != '-' && op != '=' {
				return old, false
			}
			i++
			var perm uint32
			for i < len(clause) && strings.IndexByte("+-=", clause[i]) < 0 {
				switch clause[i] {
				case 'r':
					perm |= 0o444
				case 'w':
					perm |= 0o222
				case 'x':
					perm |= 0o111
				case 'X':
					if isDir || cur&0o111 != 0 {
						perm |= 0o111
					}
				case 's':
					perm |= 0o6000
				case 't':
					perm |= 0o1000
				case 'u':
					perm |= fsSpread((cur >> 6) & 7)
				case 'g':
					perm |= fsSpread((cur >> 3) & 7)
				case 'o':
					perm |= fsSpread(cur & 7)
				default:
					return old, false
				}
				i++
			}
			eff := perm & who & mask
			switch op {
			case '+':
				cur |= eff
			case '-':
				cur &^= eff
			case '=':
				clearBits := who & 0o777
				if who&0o4000 != 0 && who&0o0700 != 0 && !isDir {
					clearBits |= 0o4000
				}
				if who&0o2000 != 0 && who&0o0070 != 0 && !isDir {
					clearBits |= 0o2000
				}
				cur = (cur &^ (clearBits & mask)) | eff
			}
		}
	}
	return cur, true
}

// fsSpread copies a three-bit rwx group to all three classes.
func fsSpread(b uint32) uint32 { return b<<6 | b<<3 | b }

func fsAllOctal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '7' {
			return false
		}
	}
	return s != ""
}
