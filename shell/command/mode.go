package command

import "io/fs"

// UnixMode is m's permission bits as chmod(2) and stat(2) have them:
// rwxrwxrwx with setuid (04000), setgid (02000) and sticky (01000).
func UnixMode(m fs.FileMode) uint32 {
	u := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		u |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		u |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		u |= 0o1000
	}
	return u
}

// FileMode is UnixMode's inverse: the permission bits (and setuid,
// setgid, sticky) of the Unix mode u, no type.
func FileMode(u uint32) fs.FileMode {
	m := fs.FileMode(u & 0o777)
	if u&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if u&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if u&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m
}
