// Package fileutil holds file commands that package shell does not: file
// (the common types by their magic bytes, as file 5.44 names them),
// install and split. Importing the package registers them (shell/command).
package fileutil

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/shell/command"
)

func init() {
	command.Register(file, "file")
	command.Register(install, "install")
	command.Register(split, "split")
}

// fileHead is how much of a file file reads to judge it.
const fileHead = 64 << 10

// file is file [-b] [-i|--mime] [--mime-type] [-L] [-h] FILE...: what each
// file is, from its type, its first bytes and, for text, its characters
// and line ends.
func file(ctx context.Context, c *command.Call, args []string) error {
	brief, mime, mimeType, follow := false, false, false, false
	var names []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			names = append(names, args[i+1:]...)
			i = len(args)
		case a == "-b" || a == "--brief":
			brief = true
		case a == "-i" || a == "--mime":
			mime = true
		case a == "--mime-type":
			mimeType = true
		case a == "-L" || a == "--dereference":
			follow = true
		case a == "-h" || a == "--no-dereference":
			follow = false
		case len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "biLh") == "":
			brief = brief || strings.Contains(a, "b")
			mime = mime || strings.Contains(a, "i")
			follow = follow || strings.Contains(a, "L")
		case len(a) > 1 && a[0] == '-':
			return c.Errorf(1, "file", "unsupported option %s (supported: -b -i --mime-type -L -h)", a)
		default:
			names = append(names, a)
		}
	}
	if len(names) == 0 {
		fmt.Fprintln(c.Stderr, "Usage: file [-bchikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n            <file> ...\n       file -C [-m <magicfiles>]\n       file [--help]")
		return command.Exit(1)
	}
	width := 0
	for _, n := range names {
		width = max(width, len(n)+1)
	}
	for _, n := range names {
		desc, mt, cs := describe(c.FS, c.Abs(n), n, follow)
		switch {
		case mimeType:
			desc = mt
		case mime:
			desc = mt + "; charset=" + cs
		}
		if !brief {
			fmt.Fprintf(c.Stdout, "%-*s %s\n", width, n+":", desc)
		} else {
			fmt.Fprintln(c.Stdout, desc)
		}
	}
	return nil
}

// describe is file's judgement of name: the description, the MIME type
// and its charset.
func describe(fsys afero.Fs, name, shown string, follow bool) (desc, mimeType, charset string) {
	var fi fs.FileInfo
	var err error
	if l, ok := fsys.(afero.Lstater); ok && !follow {
		fi, _, err = l.LstatIfPossible(name)
	} else {
		fi, err = fsys.Stat(name)
	}
	if err != nil {
		return fmt.Sprintf("cannot open `%s' (No such file or directory)", shown), "cannot open", "binary"
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target := ""
		if r, ok := fsys.(afero.LinkReader); ok {
			target, _ = r.ReadlinkIfPossible(name)
		}
		return "symbolic link to " + target, "inode/symlink", "binary"
	case fi.IsDir():
		return "directory", "inode/directory", "binary"
	case !fi.Mode().IsRegular():
		return "special", "inode/x-special", "binary"
	case fi.Size() == 0:
		return "empty", "inode/x-empty", "binary"
	}
	f, err := fsys.Open(name)
	if err != nil {
		return fmt.Sprintf("cannot open `%s' (%v)", shown, err), "cannot open", "binary"
	}
	defer f.Close()
	head, _ := io.ReadAll(io.LimitReader(f, fileHead))
	return judge(head, fi.Size())
}

// judge names content by its first bytes.
func judge(b []byte, size int64) (desc, mimeType, charset string) {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) && len(b) >= 29 && string(b[12:16]) == "IHDR":
		w, h := binary.BigEndian.Uint32(b[16:]), binary.BigEndian.Uint32(b[20:])
		color := map[byte]string{0: "grayscale", 2: "RGB", 3: "colormap", 4: "gray+alpha", 6: "RGBA"}[b[25]]
		lace := "non-interlaced"
		if b[28] == 1 {
			lace = "interlaced"
		}
		return fmt.Sprintf("PNG image data, %d x %d, %d-bit/color %s, %s", w, h, b[24], color, lace), "image/png", "binary"
	case (bytes.HasPrefix(b, []byte("GIF87a")) || bytes.HasPrefix(b, []byte("GIF89a"))) && len(b) >= 10:
		return fmt.Sprintf("GIF image data, version %s, %d x %d", b[3:6], binary.LittleEndian.Uint16(b[6:]), binary.LittleEndian.Uint16(b[8:])), "image/gif", "binary"
	case bytes.HasPrefix(b, []byte("\xff\xd8\xff")):
		return "JPEG image data", "image/jpeg", "binary"
	case bytes.HasPrefix(b, []byte("%PDF-")):
		v, _, _ := bytes.Cut(b[5:], []byte("\n"))
		return "PDF document, version " + strings.TrimSpace(string(v)), "application/pdf", "binary"
	case bytes.HasPrefix(b, []byte("\x1f\x8b")):
		d := "gzip compressed data"
		if len(b) >= 10 && b[9] == 3 {
			d += ", from Unix"
		}
		if size >= 18 && int64(len(b)) == size {
			d += fmt.Sprintf(", original size modulo 2^32 %d", binary.LittleEndian.Uint32(b[len(b)-4:]))
		}
		return d, "application/gzip", "binary"
	case bytes.HasPrefix(b, []byte("PK\x03\x04")):
		return "Zip archive data", "application/zip", "binary"
	case bytes.HasPrefix(b, []byte("\x7fELF")):
		return "ELF executable", "application/x-executable", "binary"
	case bytes.HasPrefix(b, []byte("\x00asm")):
		return "WebAssembly (wasm) binary module", "application/wasm", "binary"
	case len(b) > 262 && string(b[257:262]) == "ustar":
		return "POSIX tar archive", "application/x-tar", "binary"
	case bytes.HasPrefix(b, []byte("SQLite format 3\x00")):
		return "SQLite 3.x database", "application/vnd.sqlite3", "binary"
	}
	text, cs := textKind(b)
	if text == "" {
		return "data", "application/octet-stream", "binary"
	}
	if size < 3 && cs == "us-ascii" && !bytes.Contains(b, []byte("\n")) {
		return "very short file (no magic)", "application/octet-stream", "binary"
	}
	terms := lineNotes(b)
	if script := scriptKind(b); script != "" {
		d := script + ", " + text + " executable" // file's word for a #! text
		mt := "text/plain"
		switch script {
		case "Python script":
			mt = "text/x-script.python"
		case "POSIX shell script", "Bourne-Again shell script":
			mt = "text/x-shellscript"
		}
		return d + terms, mt, cs
	}
	trim := bytes.TrimSpace(b)
	switch {
	case bytes.HasPrefix(trim, []byte("<?xml")):
		return "XML 1.0 document, " + text + terms, "text/xml", cs
	case hasPrefixFold(trim, "<!DOCTYPE html") || hasPrefixFold(trim, "<html"):
		return "HTML document, " + text + terms, "text/html", cs
	case (bytes.HasPrefix(trim, []byte("{")) || bytes.HasPrefix(trim, []byte("["))) && json.Valid(b):
		return "JSON text data", "application/json", cs
	}
	return text + terms, "text/plain", cs
}

func hasPrefixFold(b []byte, p string) bool {
	return len(b) >= len(p) && strings.EqualFold(string(b[:len(p)]), p)
}

// textKind is "ASCII text" or "Unicode text, UTF-8 text" (with the MIME
// charset), or "" for binary data.
func textKind(b []byte) (string, string) {
	ascii := true
	for _, c := range b {
		if c == 0 || (c < 0x20 && !strings.ContainsRune("\n\r\t\f\v\b\x1b", rune(c))) || c == 0x7f {
			return "", ""
		}
		if c >= 0x80 {
			ascii = false
		}
	}
	if ascii {
		return "ASCII text", "us-ascii"
	}
	if utf8.Valid(b) || (len(b) == fileHead && utf8.Valid(b[:len(b)-utf8.UTFMax])) {
		return "Unicode text, UTF-8 text", "utf-8"
	}
	return "ISO-8859 text", "iso-8859-1"
}

// lineNotes are file's remarks on a text's lines.
func lineNotes(b []byte) string {
	var notes []string
	longest, cur := 0, 0
	for _, c := range b {
		if c == '\n' || c == '\r' {
			cur = 0
			continue
		}
		cur++
		longest = max(longest, cur)
	}
	if longest > 300 {
		notes = append(notes, fmt.Sprintf("with very long lines (%d)", longest))
	}
	crlf := bytes.Contains(b, []byte("\r\n"))
	switch {
	case crlf:
		notes = append(notes, "with CRLF line terminators")
	case bytes.ContainsRune(b, '\r') && !bytes.ContainsRune(b, '\n'):
		notes = append(notes, "with CR line terminators")
	case !bytes.ContainsRune(b, '\n'):
		notes = append(notes, "with no line terminators")
	}
	if len(notes) == 0 {
		return ""
	}
	return ", " + strings.Join(notes, ", ")
}

// scriptKind names a script by its #! line.
func scriptKind(b []byte) string {
	if !bytes.HasPrefix(b, []byte("#!")) {
		return ""
	}
	line, _, _ := bytes.Cut(b[2:], []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) == 0 {
		return ""
	}
	prog := f[0][strings.LastIndex(f[0], "/")+1:]
	if prog == "env" && len(f) > 1 {
		prog = f[1]
	}
	switch {
	case prog == "sh":
		return "POSIX shell script"
	case prog == "bash":
		return "Bourne-Again shell script"
	case strings.HasPrefix(prog, "python"):
		return "Python script"
	case prog == "node":
		return "Node.js script"
	case prog == "perl":
		return "Perl script"
	}
	return "a " + strings.Join(f, " ") + " script"
}
