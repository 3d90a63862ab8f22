package fileutil_test

import (
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

// TestChownAsUser: chown and chgrp as GNU coreutils 9.1 behave for a user
// who is not root (their messages and statuses taken from `runuser -u
// nobody -- chown ...` on Debian 12, with nobody:nogroup read as
// user:user): the file's own owner and group are kept, any other is
// refused.
func TestChownAsUser(t *testing.T) {
	files := map[string]string{"f": "x", "d/g": "y"}
	denied := "chown: changing ownership of 'f': Operation not permitted\n"
	cmdtest.RunCases(t, "chown", []cmdtest.Case{
		{Args: cmdtest.Args("user", "f"), Files: files},
		{Args: cmdtest.Args("1000", "f"), Files: files},
		{Args: cmdtest.Args("root", "f"), Files: files, Stderr: denied, Code: 1},
		{Args: cmdtest.Args("0:0", "f"), Files: files, Stderr: denied, Code: 1},
		{Args: cmdtest.Args("user:root", "f"), Files: files, Stderr: denied, Code: 1},
		{Args: cmdtest.Args(":root", "f"), Files: files, Stderr: "chown: changing group of 'f': Operation not permitted\n", Code: 1},
		{Args: cmdtest.Args("-v", "user", "f"), Files: files, Want: "ownership of 'f' retained as user\n"},
		{Args: cmdtest.Args("-v", "user:user", "f"), Files: files, Want: "ownership of 'f' retained as user:user\n"},
		{Args: cmdtest.Args("-v", ":user", "f"), Files: files, Want: "ownership of 'f' retained as user:user\n"},
		{Args: cmdtest.Args("-v", "user:", "f"), Files: files, Want: "ownership of 'f' retained as user:user\n"},
		{Args: cmdtest.Args("-c", "user", "f"), Files: files},
		{Args: cmdtest.Args("-v", "root", "f"), Files: files, Want: "failed to change ownership of 'f' from user to root\n", Stderr: denied, Code: 1},
		{Args: cmdtest.Args("-f", "root", "f"), Files: files, Code: 1},
		{Args: cmdtest.Args("bob", "f"), Files: files, Stderr: "chown: invalid user: 'bob'\n", Code: 1},
		{Args: cmdtest.Args("user:bob", "f"), Files: files, Stderr: "chown: invalid group: 'user:bob'\n", Code: 1},
		{Args: cmdtest.Args("user.", "f"), Files: files, Stderr: "chown: warning: '.' should be ':': 'user.'\n"},
		{Args: cmdtest.Args(), Stderr: "chown: missing operand\nTry 'chown --help' for more information.\n", Code: 1},
		{Args: cmdtest.Args("user"), Stderr: "chown: missing operand after 'user'\nTry 'chown --help' for more information.\n", Code: 1},
		{Args: cmdtest.Args("user", "nosuch"), Stderr: "chown: cannot access 'nosuch': No such file or directory\n", Code: 1},
		{Args: cmdtest.Args("-R", "root", "d"), Files: files, Code: 1,
			Stderr: "chown: changing ownership of 'd/g': Operation not permitted\nchown: changing ownership of 'd': Operation not permitted\n"},
		{Name: "reference", Args: cmdtest.Args("--reference=f", "d/g"), Files: files},
	})
	cmdtest.RunCases(t, "chgrp", []cmdtest.Case{
		{Args: cmdtest.Args("user", "f"), Files: files},
		{Args: cmdtest.Args("-v", "user", "f"), Files: files, Want: "group of 'f' retained as user\n"},
		{Args: cmdtest.Args("root", "f"), Files: files, Stderr: "chgrp: changing group of 'f': Operation not permitted\n", Code: 1},
		{Args: cmdtest.Args("bob", "f"), Files: files, Stderr: "chgrp: invalid group: 'bob'\n", Code: 1},
	})
}
