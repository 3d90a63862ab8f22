package shell

import (
	"testing"
)

// TestModesAndUsers: the umask builtin's state across a Run and its nested
// shells, the sandbox's users for ~NAME (never the host's user database),
// built-in commands under the paths Linux keeps them at.
func TestModesAndUsers(t *testing.T) {
	for _, tc := range []struct{ script, want string }{
		{"umask; umask 077; touch f; stat -c %a f; bash -c 'umask; touch g'; stat -c %a g", "0022\n600\n0077\n600\n[0]"},
		{"umask 0; mkdir d; touch e; stat -c %a d e", "777\n666\n[0]"},
		{"umask 027; chmod +x f 2>/dev/null; touch f; chmod +x f; stat -c %a f", "750\n[0]"},
		{"echo ~ ~user ~root ~user/x", "/home/user /home/user /root /home/user/x\n[0]"},
		// Users only the host knows stay as written.
		{"echo ~daemon ~nobody ~bin/x", "~daemon ~nobody ~bin/x\n[0]"},
		// command -v is 0 when any name is found, as bash 5.2's.
		{"/bin/echo hi; /usr/bin/printf '%s\\n' x; command -v /bin/cat /usr/bin/nosuch; echo $?", "hi\nx\n/bin/cat\n0\n[0]"},
		{"command -v /usr/bin/nosuch; echo $?", "1\n[0]"},
		{"nproc; getconf _NPROCESSORS_ONLN", "1\n1\n[0]"},
	} {
		got, err := runWith(newShTestFS(t, nil), tc.script, Options{Env: map[string]string{"HOME": "/home/user", "PATH": "/usr/bin:/bin"}, Dir: "/home/user"})
		if err != nil || got != tc.want {
			t.Errorf("%s:\ngot  %q (%v)\nwant %q", tc.script, got, err, tc.want)
		}
	}
}

// TestToolsLikeBash runs the differential scripts for file modes and the
// everyday tools (testdata/compat/9??-*.sh: umask, chmod, executables,
// file, install, split, patch, shuf, bc, ...) on this shell natively, as
// the memory adapter runs it, and with the host's bash and GNU tools: each
// must match stdout and exit code byte for byte (TestCompat only counts a
// rate over the whole corpus). providers/wasm's TestModesLikeBash runs the
// same scripts on busybox.wasm.
func TestToolsLikeBash(t *testing.T) {
	bash := lookBash(t)
	for _, s := range loadCompatScripts(t) {
		if len(s.name) < 4 || s.name[0] != '9' || s.name[3] != '-' {
			continue
		}
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := writeCompatFixtureOS(dir, false); err != nil {
				t.Fatal(err)
			}
			r := compatResult{name: s.name, bash: runCompatBash(bash, dir, s.text), ours: runCompatOurs(s.text)}
			if !r.identical() {
				t.Errorf("%s", r.report(s.text))
			}
		})
	}
}
