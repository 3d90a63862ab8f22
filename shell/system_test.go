package shell

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/vfs"
)

// TestSystemFolders: /usr/bin lists the commands the shell runs, as files
// a script can find, test, list, read and run by path; /bin and /sbin are
// links to usr/bin and usr/sbin as on Debian (merged /usr); none of it can
// be changed, as a non-root Debian user cannot, and nothing of it is stored
// in the filesystem given to Run. Expected outputs are bash 5.2's and GNU
// coreutils' for a non-root user on Debian 12 where the two agree.
func TestSystemFolders(t *testing.T) {
	lsSize := len(posixfs.StubScript("ls"))
	python := func(ctx context.Context, c *Call, args []string) error {
		fmt.Fprintf(c.Stdout, "py %s\n", strings.Join(args[1:], " "))
		return nil
	}
	for _, tc := range []struct{ script, want string }{
		{"ls /bin/ls; ls -d /bin/ /usr/bin /sbin", "/bin/ls\n/bin/\n/sbin\n/usr/bin\n[0]"},
		{"ls -ld /bin /sbin /usr/bin", "lrwxrwxrwx 1 root root    7 Jan  1  2024 /bin -> usr/bin\nlrwxrwxrwx 1 root root    8 Jan  1  2024 /sbin -> usr/sbin\ndrwxr-xr-x 2 root root 4096 Jan  1  2024 /usr/bin\n[0]"},
		{"ls -l /usr/bin/ls", fmt.Sprintf("-rwxr-xr-x 1 root root %d Jan  1  2024 /usr/bin/ls\n[0]", lsSize)},
		{"stat -c '%U %u %G %a %F' /usr/bin/ls /bin /usr; stat -Lc %F /bin", "root 0 root 755 regular file\nroot 0 root 777 symbolic link\nroot 0 root 755 directory\ndirectory\n[0]"},
		{"test -x /usr/bin/env && [ -x /bin/sh ] && [ -f /bin/ls ] && [ -d /bin ] && [ -L /bin ] && [ ! -e /usr/bin/nosuch ] && echo ok", "ok\n[0]"},
		{"command -v ls; which python3 sh; type ls", "/usr/bin/ls\n/usr/bin/python3\n/usr/bin/sh\nls is /usr/bin/ls\n[0]"},
		{"PATH=/bin:/usr/bin; command -v ls; which ls", "/bin/ls\n/bin/ls\n[0]"},
		{"which -a ls echo; type -a ls", "/usr/bin/ls\n/bin/ls\n/usr/bin/echo\n/bin/echo\nls is /usr/bin/ls\nls is /bin/ls\n[0]"},
		// The user (uid 1000) may read and run them, not write them.
		{"for op in -r -w -x -O -G; do test $op /usr/bin/ls; printf '%s=%s ' $op $?; done; test -w /usr/bin; echo dir=$?", "-r=0 -w=1 -x=0 -O=1 -G=1 dir=1\n[0]"},
		{"ls -la /usr/sbin; tar -cf /tmp/t.tar -C / bin usr/sbin && tar -tvf /tmp/t.tar",
			"total 8\ndrwxr-xr-x 2 root root 4096 Jan  1  2024 .\ndrwxr-xr-x 4 root root 4096 Jan  1  2024 ..\n" +
				"lrwxrwxrwx root/root         0 2024-01-01 00:00 bin -> usr/bin\ndrwxr-xr-x root/root         0 2024-01-01 00:00 usr/sbin/\n[0]"},
		{"/bin/echo hi; /usr/bin/python3 -c x; /bin/sh -c 'echo ok'; /usr/bin/env printf '%s\\n' env", "hi\npy -c x\nok\nenv\n[0]"},
		{"printf '#!/usr/bin/env python3\\n' > p; printf '#!/bin/bash\\necho b \"$@\"\\n' > b; chmod +x p b; ./p a; ./b c", "py ./p a\nb c\n[0]"},
		{"readlink -f /bin/sh; readlink /bin /sbin; cd /bin && pwd && pwd -P", "/usr/bin/sh\nusr/bin\nusr/sbin\n/bin\n/usr/bin\n[0]"},
		{"find /usr/bin -name 'py*'; find /bin/ -name ls; ls /usr/bin | grep -x -e ls -e '\\[' -e python3; ls /sbin/", "/usr/bin/python3\n/bin/ls\n[\nls\npython3\n[0]"},
		{"find / -maxdepth 1 -user root; ls /", "/bin\n/etc\n/sbin\n/usr\nbin\netc\nhome\nsbin\ntmp\nusr\n[0]"},
		{"cat /usr/bin/ls", string(posixfs.StubScript("ls")) + "[0]"},
		// A copy of a command's file still runs the command.
		{"cp /usr/bin/ls ./myls && ./myls -d /; sh /bin/ls -d /tmp", "/\n/tmp\n[0]"},
		{"rm /usr/bin/ls; rm -f /bin/ls; rm -r /bin; echo x > /usr/bin/ls; touch /usr/bin/new; mkdir /usr/bin/d; chmod 700 /usr/bin/ls; mv /usr/bin/ls /tmp; cp /bin/ls /usr/bin/x; ln -s x /bin/y; echo $?",
			"rm: cannot remove '/usr/bin/ls': Permission denied\n" +
				"rm: cannot remove '/bin/ls': Permission denied\n" +
				"rm: cannot remove '/bin': Permission denied\n" +
				"bash: line 1: /usr/bin/ls: Permission denied\n" +
				"touch: cannot touch '/usr/bin/new': Permission denied\n" +
				"mkdir: cannot create directory '/usr/bin/d': Permission denied\n" +
				"chmod: changing permissions of '/usr/bin/ls': Operation not permitted\n" +
				"mv: cannot move '/usr/bin/ls' to '/tmp/ls': Permission denied\n" +
				"cp: cannot create regular file '/usr/bin/x': Permission denied\n" +
				"ln: failed to create symbolic link '/bin/y': Permission denied\n1\n[0]"},
		// A file of the user's earlier in $PATH wins (commit fef213d's
		// rule); the command's path runs the command.
		{"mkdir -p ~/bin; printf '#!/bin/sh\\necho mine\\n' > ~/bin/ls; chmod +x ~/bin/ls; PATH=~/bin:$PATH; ls; command -v ls; /bin/ls -d /; /usr/bin/ls -d /", "mine\n/home/user/bin/ls\n/\n/\n[0]"},
		// Links of the user's into the system's folders lead there.
		{"mkdir -p /usr/local/bin; ln -s /usr/bin/python3 /usr/local/bin/python; python -c x; ls -lL /usr/local/bin/python | cut -d' ' -f1,3; ln -s /bin ~/b; ls ~/b/ls; ~/b/ls -d /; cd ~/b && pwd -P; touch ~/b/new; rm ~/b/ls",
			"py -c x\n-rwxr-xr-x root\n/home/user/b/ls\n/\n/usr/bin\ntouch: cannot touch '/home/user/b/new': Permission denied\nrm: cannot remove '/home/user/b/ls': Permission denied\n[1]"},
		// /usr/local is the user's.
		{"mkdir -p /usr/local/bin && printf '#!/bin/sh\\necho tool\\n' > /usr/local/bin/tool && chmod +x /usr/local/bin/tool && tool; ls /usr; stat -c %U /usr/local", "tool\nbin\nlocal\nsbin\nuser\n[0]"},
	} {
		fsys := vfs.New(vfs.Options{})
		for _, d := range []string{"/home/user", "/tmp"} {
			if err := fsys.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		got, err := runWith(fsys, tc.script, Options{
			Env:           map[string]string{"HOME": "/home/user", "PATH": "/usr/local/bin:/usr/bin:/bin"},
			Handlers:      map[string]Builtin{"python3": python},
			FallbackNames: []string{"python3"},
		})
		if err != nil || got != tc.want {
			t.Errorf("%s:\ngot  %q (%v)\nwant %q", tc.script, got, err, tc.want)
		}
		// Nothing of the system's folders is in the filesystem itself.
		for _, p := range []string{"/bin", "/sbin", "/usr/bin"} {
			if _, _, err := fsys.LstatIfPossible(p); err == nil {
				t.Errorf("%s: %s is in the filesystem", tc.script, p)
			}
		}
	}
}
