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
	ctx := context.Background()
	sb, err := provider(t, docker.Options{}).Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
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
	sb, err := provider(t, docker.Options{}).Create(ctx, sandbox.CreateSandboxOptions{Extra: map[string]any{"user": "root"}})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	res := run(t, sb, `id -u; echo "$HOME"; grep CapEff /proc/self/status`, sandbox.RunCommandOptions{})
	assert.Equal(t, "0\n/root\nCapEff:\t00000000000004fb\n", res.Stdout, res.Stderr)

	_, err = provider(t, docker.Options{}).Create(ctx, sandbox.CreateSandboxOptions{Extra: map[string]any{"user": "admin"}})
	assert.ErrorContains(t, err, `unknown user "admin"`)
	_, err = provider(t, docker.Options{}).Create(ctx, sandbox.CreateSandboxOptions{Extra: map[string]any{"gpu": true}})
	assert.ErrorContains(t, err, "unknown Extra option")
}

// watchdogPid is a command line printing the watchdog's pid: the shell
// whose parent is init.
const watchdogPid = `for p in /proc/[0-9]*; do set -- $(cat $p/stat 2>/dev/null); [ "$2" = "(sh)" ] && [ "$4" = 1 ] && echo ${p#/proc/}; done`

func TestWatchdogIsOutOfTheUsersReach(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb, err := provider(t, docker.Options{ReapInterval: -1}).Create(ctx, sandbox.CreateSandboxOptions{Timeout: 3 * time.Second})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
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

// watchdogAttacks stop or corrupt the watchdog from inside, as root.
var watchdogAttacks = map[string]string{
	"stopped":            "kill -STOP $(" + watchdogPid + ")",
	"stopped, garbled":   "echo garbage > /run/agentenkit/deadline; kill -STOP $(" + watchdogPid + ")",
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

// A command run as root can push the idle end back as far as it likes; the
// hard end, a label, it cannot.
func TestReaperEndsAtTheHardEnd(t *testing.T) {
	ctx := context.Background()
	p := provider(t, docker.Options{ReapInterval: -1, MaxLifetime: 8 * time.Second})
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{Extra: map[string]any{"user": "root"}})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	res := run(t, sb, "echo 999999999 > /run/agentenkit/idle; sleep 2; kill -STOP $("+watchdogPid+")", sandbox.RunCommandOptions{})
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
	ctx := context.Background()
	sb, err := provider(t, docker.Options{ReapInterval: -1}).Create(ctx, sandbox.CreateSandboxOptions{Timeout: 2 * time.Second, Extra: map[string]any{"user": "root"}})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	run(t, sb, "kill -STOP $("+watchdogPid+")", sandbox.RunCommandOptions{})
	// A provider started later, reaping every 500 ms, removes it.
	provider(t, docker.Options{ReapInterval: 500 * time.Millisecond, ReapGrace: time.Second})
	waitGone(t, sb.ID(), 15*time.Second)
}
