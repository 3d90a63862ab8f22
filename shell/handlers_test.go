package shell

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/shell/posixfs"
)

// TestRunNoHost checks that scripts naming host files neither see nor
// change them: the paths exist on the host, not in the FS.
func TestRunNoHost(t *testing.T) {
	var id [6]byte
	_, _ = rand.Read(id[:])
	tag := hex.EncodeToString(id[:])
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret-"+tag+".sh")
	const content = "echo HOSTSECRET"
	if err := os.WriteFile(secret, []byte(content+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmdName := "hostcmd-" + tag
	if err := os.WriteFile(filepath.Join(dir, cmdName), []byte("#!/bin/sh\necho HOSTSECRET\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	hostTmp := os.TempDir()
	probe := filepath.Join(hostTmp, "agentenkit-probe-"+tag)
	listing := func(d string) []string {
		entries, _ := os.ReadDir(d)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		return names
	}
	beforeDir, beforeTmp := listing(dir), listing(hostTmp)
	repl := strings.NewReplacer("SECRET", secret, "DIR", dir, "CMD", cmdName, "PROBE", probe)
	for _, script := range []string{
		"cat SECRET",
		"cat < SECRET",
		"x=$(< SECRET); echo \"$x\"",
		"ls DIR; ls -la DIR",
		"cd DIR && pwd && ls",
		"source SECRET",
		". SECRET",
		"bash SECRET; sh SECRET",
		"SECRET",
		"[ -f SECRET ] && echo seen; test -d DIR && echo seen; [ -x SECRET ] && echo seen; [ -O SECRET ] && echo seen",
		"[[ -e SECRET ]] && echo seen",
		"echo DIR/*",
		"for f in DIR/*; do cat \"$f\"; done",
		"find / -name 'secret-*'; find DIR",
		"cp SECRET copy && cat copy; cp -r DIR d2; ls d2",
		"tar cf - SECRET | tar tvf -",
		"stat SECRET; du DIR; realpath -e SECRET",
		"head -1 SECRET; wc -l SECRET; grep -r HOSTSECRET DIR",
		"PATH=DIR:$PATH; CMD; command -v CMD; type CMD; which CMD",
		"PATH=DIR:$PATH; source secret-" + tag + ".sh",
		"cd DIR; pwd -P",
		"echo x > DIR/new.txt; echo x >> SECRET; mkdir DIR/newdir; touch DIR/t",
		"echo x > PROBE; mktemp; mktemp -d; cat <(echo procsubst) >/dev/null",
		"rm -rf DIR; rm SECRET",
		"eval 'cat SECRET'; bash -c 'cat SECRET'",
		"exec < SECRET; cat",
		"xargs cat <<< SECRET; find DIR -exec cat {} \\;",
		"env cat SECRET; timeout 1 cat SECRET",
		"gzip -c SECRET; ln -s SECRET l; cat l",
		"ls /proc/self/root DIR/..; cat /etc/passwd /etc/hostname",
	} {
		script = repl.Replace(script)
		out, errOut, _ := runSh(t, newShTestFS(t, shTestFiles), script)
		if strings.Contains(out+errOut, "HOSTSECRET") || strings.Contains(out, "seen") {
			t.Errorf("%s\nsaw the host:\nstdout: %s\nstderr: %s", script, out, errOut)
		}
		if strings.Contains(out, cmdName) {
			t.Errorf("%s\nfound the host's command:\n%s", script, out)
		}
	}
	if after := listing(dir); strings.Join(after, "\n") != strings.Join(beforeDir, "\n") {
		t.Errorf("the host folder changed: %v, was %v", after, beforeDir)
	}
	if b, err := os.ReadFile(secret); err != nil || string(b) != content+"\n" {
		t.Errorf("the host file changed: %q, %v", b, err)
	}
	if _, err := os.Stat(probe); err == nil {
		t.Errorf("a script created %s on the host", probe)
	}
	for _, n := range listing(hostTmp) {
		if strings.HasPrefix(n, "sh-interp-") && !contains(beforeTmp, n) {
			t.Errorf("a FIFO was made on the host: %s", n)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestRunProcSubstCleanup checks that process substitution leaves no
// temporary file behind.
func TestRunProcSubstCleanup(t *testing.T) {
	fsys := newShTestFS(t, shTestFiles)
	out, _, code := runSh(t, fsys, "diff <(sort a.txt) <(sort a.txt) && echo same; cat <(echo x) <(echo y) | wc -l")
	if out != "same\n2\n" || code != 0 {
		t.Fatalf("got %q %d", out, code)
	}
	entries, _ := posixfs.ReadDir(fsys, "/tmp")
	if len(entries) != 0 {
		t.Errorf("/tmp holds %d files after the run", len(entries))
	}
}

// TestRunEnvironmentOfCommands checks what a builtin's Call gets.
func TestRunEnvironmentOfCommands(t *testing.T) {
	var got *Call
	var env []string
	h := map[string]Builtin{"probe": func(ctx ctxT, c *Call, args []string) error {
		got = c
		env = c.Environ()
		return nil
	}}
	fsys := newShTestFS(t, shTestFiles)
	_, err := runWith(fsys, "LOCAL=1; export EXP=2; cd src; V=3 probe", Options{Handlers: h, Env: map[string]string{"HOME": shTestDir, "Z": "z"}})
	if err != nil {
		t.Fatal(err)
	}
	if got == nil {
		t.Fatal("probe did not run")
	}
	if got.Dir != "/home/user/src" {
		t.Errorf("Dir %q", got.Dir)
	}
	want := []string{"EXP=2", "HOME=/home/user", "OLDPWD=/home/user", "PATH=" + DefaultPath, "PWD=/home/user/src", "V=3", "Z=z"}
	if strings.Join(env, " ") != strings.Join(want, " ") {
		t.Errorf("Environ %q, want %q", env, want)
	}
	if v, ok := got.Env("LOCAL"); ok {
		t.Errorf("an unexported variable reached the command: %q", v)
	}
}
