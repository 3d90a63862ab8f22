package docker_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/docker"
	"github.com/agentenkit/agentenkit/sandbox"
)

// inspect returns `docker inspect` of a container, as the CLI shows it.
func inspect(t *testing.T, id string) map[string]any {
	t.Helper()
	out, err := exec.Command("docker", "inspect", id).Output()
	require.NoError(t, err)
	var v []map[string]any
	require.NoError(t, json.Unmarshal(out, &v))
	require.Len(t, v, 1)
	return v[0]
}

func run(t *testing.T, sb sandbox.Sandbox, cmd string, opts sandbox.RunCommandOptions) sandbox.CommandResult {
	t.Helper()
	res, err := sb.RunCommand(context.Background(), cmd, opts)
	require.NoError(t, err)
	return res
}

func TestHardenedDefaults(t *testing.T) {
	t.Parallel()
	sb := create(t, provider(t, docker.Options{}), sandbox.CreateSandboxOptions{})
	in := inspect(t, sb.ID())
	host := in["HostConfig"].(map[string]any)
	assert.Equal(t, []any{"ALL"}, host["CapDrop"])
	assert.ElementsMatch(t, []any{"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_FSETID", "CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_NET_BIND_SERVICE"}, host["CapAdd"])
	assert.Equal(t, []any{"no-new-privileges:true"}, host["SecurityOpt"])
	assert.EqualValues(t, 512, host["PidsLimit"])
	assert.EqualValues(t, 2<<30, host["Memory"])
	assert.EqualValues(t, 2<<30, host["MemorySwap"])
	assert.EqualValues(t, 1e9, host["NanoCpus"])
	assert.Equal(t, "none", host["NetworkMode"])
	labels := in["Config"].(map[string]any)["Labels"].(map[string]any)
	assert.Equal(t, "1", labels["io.agentenkit.managed"])

	res := run(t, sb, `id -u; id -g; whoami; echo "$HOME"; pwd; grep NoNewPrivs /proc/self/status; grep CapEff /proc/self/status`, sandbox.RunCommandOptions{})
	assert.Equal(t, "1000\n1000\nuser\n/home/user\n/home/user\nNoNewPrivs:\t1\nCapEff:\t0000000000000000\n", res.Stdout, res.Stderr)
	res = run(t, sb, "touch mine && ls -ln mine | awk '{print $3, $4}'", sandbox.RunCommandOptions{})
	assert.Equal(t, "1000 1000\n", res.Stdout, res.Stderr)
	res = run(t, sb, "touch /etc/x", sandbox.RunCommandOptions{})
	assert.NotEqual(t, 0, res.ExitCode, "the user cannot write the system's folders")
}

func TestRootWhenAsked(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb := create(t, provider(t, docker.Options{}), sandbox.CreateSandboxOptions{Extra: map[string]any{"user": "root"}})
	res := run(t, sb, `id -u; echo "$HOME"; grep CapEff /proc/self/status`, sandbox.RunCommandOptions{})
	assert.Equal(t, "0\n/root\nCapEff:\t00000000000004fb\n", res.Stdout, res.Stderr)

	_, err := provider(t, docker.Options{}).Create(ctx, sandbox.CreateSandboxOptions{Extra: map[string]any{"user": "admin"}})
	assert.ErrorContains(t, err, `unknown user "admin"`)
	_, err = provider(t, docker.Options{}).Create(ctx, sandbox.CreateSandboxOptions{Extra: map[string]any{"gpu": true}})
	assert.ErrorContains(t, err, "unknown Extra option")
}

// watchdogPid is a command line printing the watchdog's pid: the shell
// whose parent is init.
const watchdogPid = `for p in /proc/[0-9]*; do set -- $(cat $p/stat 2>/dev/null); [ "$2" = "(sh)" ] && [ "$4" = 1 ] && echo ${p#/proc/}; done`

func TestWatchdogIsOutOfTheUsersReach(t *testing.T) {
	t.Parallel()
	sb := create(t, provider(t, docker.Options{ReapInterval: -1}), sandbox.CreateSandboxOptions{Timeout: 3 * time.Second})
	pid := strings.TrimSpace(run(t, sb, watchdogPid, sandbox.RunCommandOptions{}).Stdout)
	require.NotEmpty(t, pid)
	for _, attack := range []string{
		"kill -STOP " + pid,
		"kill -KILL " + pid,
		"echo 999999 > /run/agentenkit/idle",
		"echo 99999999999 > /run/agentenkit/deadline",
		"ls /run/agentenkit",
		// the state of earlier versions, where commands could write it
		"mkdir -p /tmp/.sbx && echo 999999 > /tmp/.sbx/idle",
	} {
		res := run(t, sb, attack, sandbox.RunCommandOptions{})
		if !strings.HasPrefix(attack, "mkdir") {
			assert.NotEqual(t, 0, res.ExitCode, "%s: %s", attack, res.Stdout)
		}
	}
	// Still ends by itself, idle.
	waitGone(t, sb.ID(), 20*time.Second)
}

// The file API writes as root (the engine's copy): what it writes over the
// watchdog's files, even through a link a command made, does not move the
// sandbox's end.
func TestFileAPICannotMoveTheEnd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb := create(t, provider(t, docker.Options{ReapInterval: -1}), sandbox.CreateSandboxOptions{Timeout: 4 * time.Second})
	fsys := sb.FileSystem()
	run(t, sb, "ln -s /run/agentenkit state", sandbox.RunCommandOptions{})
	require.NoError(t, fsys.WriteFile(ctx, "/run/agentenkit/idle", []byte("999999\n")))
	require.NoError(t, fsys.WriteFile(ctx, "/run/agentenkit/deadline", []byte("99999999999\n")))
	_ = fsys.WriteFile(ctx, "state/tick", []byte("999999\n"))
	time.Sleep(1500 * time.Millisecond)
	info, err := sb.GetInfo(ctx)
	require.NoError(t, err)
	assert.Less(t, time.Until(info.EndAt), 10*time.Second, "the end is the watchdog's, not the forged one")
	waitGone(t, sb.ID(), 20*time.Second)
}

// watchdogAttacks stop or corrupt the watchdog from inside, as root.
var watchdogAttacks = map[string]string{
	"stopped":          "kill -STOP $(" + watchdogPid + ")",
	"stopped, garbled": "echo garbage > /run/agentenkit/deadline; kill -STOP $(" + watchdogPid + ")",
}

// The reaper tests run one at a time, apart from the parallel ones: every
// provider's reaper removes any sandbox past its end, so one test's reaper
// would end another's sandbox before it looked.
func TestReaperEndsWhatTheWatchdogNoLongerDoes(t *testing.T) {
	for name, attack := range watchdogAttacks {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			p := provider(t, docker.Options{ReapInterval: -1, ReapGrace: 2 * time.Second})
			sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{Timeout: 2 * time.Second, Extra: map[string]any{"user": "root"}})
			require.NoError(t, err)
			defer sb.Destroy(ctx)
			res := run(t, sb, attack, sandbox.RunCommandOptions{})
			require.Equal(t, 0, res.ExitCode, res.Stderr)
			time.Sleep(3 * time.Second)
			_, err = p.Connect(ctx, sb.ID())
			require.NoError(t, err, "the watchdog is out of action: the container lives on past its idle end")
			assert.Eventually(t, func() bool {
				removed, err := p.Reap(ctx)
				require.NoError(t, err)
				return slices.Contains(removed, sb.ID())
			}, 10*time.Second, 500*time.Millisecond, "the reaper removes it")
			waitGone(t, sb.ID(), 5*time.Second)
		})
	}
}

// A command run as root can push the idle end back as far as it likes (it
// can write to the watchdog's fifo); the hard end, a label, it cannot.
func TestReaperEndsAtTheHardEnd(t *testing.T) {
	ctx := context.Background()
	p := provider(t, docker.Options{ReapInterval: -1, MaxLifetime: 8 * time.Second})
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{Extra: map[string]any{"user": "root"}})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	res := run(t, sb, "echo 999999999 > /run/agentenkit/tick; sleep 2; kill -STOP $("+watchdogPid+")", sandbox.RunCommandOptions{})
	require.Equal(t, 0, res.ExitCode, res.Stderr)
	_, err = p.Reap(ctx)
	require.NoError(t, err)
	_, err = p.Connect(ctx, sb.ID())
	require.NoError(t, err, "not removed before its end")
	time.Sleep(time.Until(time.Now().Add(7 * time.Second)))
	_, err = p.Reap(ctx)
	require.NoError(t, err)
	waitGone(t, sb.ID(), 5*time.Second)
}

func TestReaperRunsOnItsOwn(t *testing.T) {
	sb := create(t, provider(t, docker.Options{ReapInterval: -1}), sandbox.CreateSandboxOptions{Timeout: 2 * time.Second, Extra: map[string]any{"user": "root"}})
	run(t, sb, "kill -STOP $("+watchdogPid+")", sandbox.RunCommandOptions{})
	// A provider started later, reaping every 500 ms, removes it.
	provider(t, docker.Options{ReapInterval: 500 * time.Millisecond, ReapGrace: time.Second})
	waitGone(t, sb.ID(), 15*time.Second)
}

func TestTimeoutKillsEveryProcessTheCommandStarted(t *testing.T) {
	t.Parallel()
	sb := create(t, provider(t, docker.Options{}), sandbox.CreateSandboxOptions{})
	// A child in the group, one in a session of its own, a double fork
	// (adopted by init), and setsid's double fork.
	res := run(t, sb, "sleep 91 & setsid sleep 92 & (sleep 93 &) ; (setsid sleep 94 &); echo started; sleep 95", sandbox.RunCommandOptions{Timeout: 2 * time.Second})
	assert.True(t, res.TimedOut)
	assert.Equal(t, sandbox.TimeoutExitCode, res.ExitCode)
	assert.Equal(t, "started\n", res.Stdout)
	ps := run(t, sb, `for p in /proc/[0-9]*; do tr '\0' ' ' < $p/cmdline; echo; done | grep '^sleep 9' || true`, sandbox.RunCommandOptions{})
	assert.Empty(t, ps.Stdout, "no sleep lives on")

	// A command that ends in time leaves its servers running.
	run(t, sb, "setsid sleep 300 >/dev/null 2>&1 &", sandbox.RunCommandOptions{})
	ps = run(t, sb, `for p in /proc/[0-9]*; do tr '\0' ' ' < $p/cmdline; echo; done | grep '^sleep 300' || true`, sandbox.RunCommandOptions{})
	assert.Equal(t, "sleep 300 \n", ps.Stdout)
}

func TestForkBombIsStopped(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb := create(t, provider(t, docker.Options{}), sandbox.CreateSandboxOptions{Resources: sandbox.Resources{Pids: 48, MemoryMB: 256}})
	res := run(t, sb, `b() { b | b & }; b; sleep 30`, sandbox.RunCommandOptions{Timeout: 3 * time.Second})
	assert.True(t, res.TimedOut)
	// The sandbox is usable again, and the bomb is gone.
	var out string
	assert.Eventually(t, func() bool {
		res, err := sb.RunCommand(ctx, `n=0; for p in /proc/[0-9]*; do n=$((n+1)); done; echo $n`, sandbox.RunCommandOptions{Timeout: 10 * time.Second})
		out = strings.TrimSpace(res.Stdout)
		return err == nil && res.ExitCode == 0 && out != "" && len(out) <= 1
	}, 20*time.Second, time.Second, "processes left: %s", out)
	assert.EqualValues(t, 48, inspect(t, sb.ID())["HostConfig"].(map[string]any)["PidsLimit"], "the pids limit is set back after the kill")
}

func TestMemoryBombIsStopped(t *testing.T) {
	t.Parallel()
	sb := create(t, provider(t, docker.Options{}), sandbox.CreateSandboxOptions{Resources: sandbox.Resources{MemoryMB: 64}})
	// awk doubles a string until the kernel's OOM killer ends it.
	res := run(t, sb, `awk 'BEGIN { s = "x"; while (1) s = s s }'`, sandbox.RunCommandOptions{Timeout: time.Minute})
	assert.False(t, res.TimedOut)
	assert.Equal(t, 137, res.ExitCode, "killed by the OOM killer: %s", res.Stderr)
	res = run(t, sb, "echo alive", sandbox.RunCommandOptions{})
	assert.Equal(t, "alive\n", res.Stdout, "the sandbox lives on")
}

func TestWriteFileKeepsModeAndOwner(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := provider(t, docker.Options{})
	for _, user := range []string{"user", "root"} {
		sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{Extra: map[string]any{"user": user}})
		require.NoError(t, err)
		defer sb.Destroy(ctx)
		fsys := sb.FileSystem()
		res := run(t, sb, "echo old > kept && chmod 750 kept && ln -s kept link", sandbox.RunCommandOptions{})
		require.Equal(t, 0, res.ExitCode, res.Stderr)
		require.NoError(t, fsys.WriteFile(ctx, "kept", []byte("new\n")))
		require.NoError(t, fsys.WriteFile(ctx, "link", []byte("via link\n")))
		require.NoError(t, fsys.WriteFile(ctx, "a/b/new.txt", []byte("x")))
		uid := map[string]string{"user": "1000", "root": "0"}[user]
		res = run(t, sb, "cat kept; stat -c '%a %u %g' kept a a/b a/b/new.txt; [ -L link ] && echo still a link; echo more > a/b/more && echo can write in the new folder", sandbox.RunCommandOptions{})
		assert.Equal(t, "via link\n750 "+uid+" "+uid+"\n755 "+uid+" "+uid+"\n755 "+uid+" "+uid+"\n644 "+uid+" "+uid+"\nstill a link\ncan write in the new folder\n", res.Stdout, "%s: %s", user, res.Stderr)
	}
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{Extra: map[string]any{"user": "root"}})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	run(t, sb, "echo x > /home/user/theirs && chown 1234:4321 /home/user/theirs && chmod 4640 /home/user/theirs", sandbox.RunCommandOptions{})
	require.NoError(t, sb.FileSystem().WriteFile(ctx, "/home/user/theirs", []byte("y")))
	res := run(t, sb, "stat -c '%a %u %g' /home/user/theirs", sandbox.RunCommandOptions{})
	assert.Equal(t, "4640 1234 4321\n", res.Stdout)
}

func TestSandboxesDoNotReachEachOther(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := provider(t, docker.Options{})
	var sbs []sandbox.Sandbox
	for range 2 {
		sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{Network: sandbox.Network{Mode: sandbox.NetworkAll}})
		require.NoError(t, err)
		defer sb.Destroy(ctx)
		sbs = append(sbs, sb)
	}
	in := inspect(t, sbs[0].ID())
	nets := in["NetworkSettings"].(map[string]any)["Networks"].(map[string]any)
	require.Contains(t, nets, docker.DefaultNetworkName)
	ip := nets[docker.DefaultNetworkName].(map[string]any)["IPAddress"].(string)
	out, err := exec.Command("docker", "network", "inspect", "-f", `{{index .Options "com.docker.network.bridge.enable_icc"}}`, docker.DefaultNetworkName).Output()
	require.NoError(t, err)
	assert.Equal(t, "false\n", string(out))

	require.NoError(t, sbs[0].FileSystem().WriteFile(ctx, "www/index.html", []byte("hello")))
	run(t, sbs[0], "httpd -p 8080 -h www >/dev/null 2>&1", sandbox.RunCommandOptions{})
	// (busybox-static's wget crashes on exit here: nc speaks HTTP instead)
	get := `printf 'GET /index.html HTTP/1.0\r\n\r\n' | nc -w 3 ` + ip + ` 8080 | tail -n 1`
	res := run(t, sbs[0], get, sandbox.RunCommandOptions{})
	assert.Equal(t, "hello", res.Stdout, "its own server answers: %s", res.Stderr)
	res = run(t, sbs[1], get, sandbox.RunCommandOptions{})
	assert.Empty(t, res.Stdout, "another sandbox cannot reach it")
}

// An exec whose host went away is killed by the watchdog at the limit on
// its script's first line.
func TestWatchdogKillsAnAbandonedCommand(t *testing.T) {
	t.Parallel()
	sb := create(t, provider(t, docker.Options{}), sandbox.CreateSandboxOptions{})
	start := time.Now()
	out, err := exec.Command("docker", "exec", "-u", "1000", sb.ID(), "/bin/sh", "-c", "# agentenkit-limit=2\nsleep 30; echo not killed").CombinedOutput()
	took := time.Since(start)
	assert.Error(t, err, "killed: %s", out)
	assert.NotContains(t, string(out), "not killed")
	assert.Less(t, took, 10*time.Second)
	t.Logf("killed after %s", took)
}

// Short commands, each quicker than the watchdog's one-second look, are uses
// too.
func TestShortCommandsAreUses(t *testing.T) {
	t.Parallel()
	sb := create(t, provider(t, docker.Options{ReapInterval: -1}), sandbox.CreateSandboxOptions{Timeout: 3 * time.Second})
	start := time.Now()
	for time.Since(start) < 8*time.Second {
		run(t, sb, "true", sandbox.RunCommandOptions{})
		time.Sleep(700 * time.Millisecond)
	}
	res := run(t, sb, "echo alive", sandbox.RunCommandOptions{})
	assert.Equal(t, "alive\n", res.Stdout)
}
