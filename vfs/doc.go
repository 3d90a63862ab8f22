// Package vfs is the filesystem of one wasm or memory sandbox: an afero.Fs
// kept in memory, with POSIX semantics, symbolic links and quotas, seen
// natively by the memory adapter and mounted into WebAssembly guests.
//
// # Vocabulary
//
//   - The root is "/", the top of one FS. Every name an FS is given is made
//     clean and absolute against it first: "a/b", "/a/b", "./a//b/" and
//     "../../a/b" all name /a/b.
//   - The jail is that rule: ".." stops at the root, so a name cannot mean
//     anything outside. There is no outside to reach: the FS holds no host
//     path and opens no host file. Escape is not refused, it is
//     unexpressible.
//   - A link is a symbolic link kept in the FS. Its target is stored as
//     written and resolved at use: an absolute target from the root, a
//     relative one from the link's directory, element by element as POSIX
//     does. A link to "../../../../etc/passwd" leads to /etc/passwd of this
//     FS, which does not exist unless someone made it. A chain longer than
//     40 links is ELOOP.
//   - A quota caps what the FS holds: MaxBytes the sum of the sizes of
//     regular files, MaxFiles the number of files, directories and links.
//     An operation that would go over one changes nothing and returns an
//     error matching ErrNoSpace (and syscall.ENOSPC). Removing, truncating
//     and renaming over a file give its bytes back.
//   - Usage is what the quotas count now (FS.Usage).
//
// # Errors
//
// Every error is a *fs.PathError (an *os.LinkError for two-path operations)
// whose Err is a syscall.Errno, such as ENOENT, EEXIST, ENOTDIR, EISDIR,
// ENOTEMPTY, EINVAL, ELOOP or EBADF, or a quota error. errors.Is matches them
// against the io/fs sentinels (fs.ErrNotExist, fs.ErrExist, ...) and the
// errnos alike. Reading at or past the end of a file is io.EOF, never
// io.ErrUnexpectedEOF.
//
// # Views
//
//   - FS itself is the afero.Fs (with afero.Lstater and afero.Symlinker).
//   - FS.IOFS is a read-only io/fs.FS of the same tree.
//   - SandboxFS is the port's sandbox.FileSystem over it, relative to a
//     work folder.
//   - FS.WASI is wazero's experimental sys.FS over it, to mount read-write
//     into WebAssembly guests; quota errors reach a guest as EIO, since
//     WASI has no ENOSPC.
//
// All views share the one tree and its lock: a change through one is seen
// at once through the others.
//
// # Fixes over afero.MemMapFs
//
// FS stores its nodes in an afero.MemMapFs and corrects it where it departs
// from POSIX: it never passes a relative or unclean key; creating or
// renaming into a missing parent is ENOENT (ENOTDIR under a file) instead of
// making the parent; removing a directory with entries is ENOTEMPTY instead
// of orphaning them; Mkdir of anything existing is EEXIST; O_APPEND holds at
// every write; WriteAt and ReadAt leave the offset alone; Rename checks
// EISDIR, ENOTDIR, ENOTEMPTY and EINVAL; listings are sorted and rewind on
// Seek(0, io.SeekStart); Close no longer touches the modification time of a
// file it did not change.
package vfs
