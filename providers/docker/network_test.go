package docker_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/docker"
	"github.com/agentenkit/agentenkit/sandbox"
)

// Two networks of one name (two processes made it at once; the engine's
// duplicate check is not atomic) left every later sandbox with network all
// failing with "network ... is ambiguous". The provider takes the first one
// made and removes the unused others.
func TestDuplicateNetworkNames(t *testing.T) {
	t.Parallel()
	name := "agentenkit-duptest-" + uuid.NewString()[:8]
	p := provider(t, docker.Options{NetworkName: name})
	t.Cleanup(func() {
		out, _ := exec.Command("docker", "network", "ls", "-q", "--filter", "name="+name).Output()
		for _, id := range strings.Fields(string(out)) {
			_ = exec.Command("docker", "network", "rm", id).Run()
		}
	})
	// The engine's API before 1.44 makes a duplicate when asked not to check.
	var ids []string
	for range 2 {
		body := fmt.Sprintf(`{"Name":%q,"CheckDuplicate":false,"Driver":"bridge","Options":{"com.docker.network.bridge.enable_icc":"false"},"Labels":{"io.agentenkit.managed":"1"}}`, name)
		out, err := exec.Command("curl", "-sS", "--unix-socket", "/var/run/docker.sock", "-X", "POST",
			"-H", "Content-Type: application/json", "-d", body, "http://localhost/v1.41/networks/create").CombinedOutput()
		require.NoError(t, err, "%s", out)
		require.Contains(t, string(out), `"Id"`)
		ids = append(ids, strings.Split(strings.Split(string(out), `"Id":"`)[1], `"`)[0])
	}
	out, err := exec.Command("docker", "network", "ls", "-q", "--no-trunc", "--filter", "name="+name).Output()
	require.NoError(t, err)
	if len(strings.Fields(string(out))) != 2 {
		t.Skipf("this engine refused the duplicate network (it checks names itself): %s", out)
	}

	for range 2 {
		sb := create(t, p, sandbox.CreateSandboxOptions{Network: sandbox.Network{Mode: sandbox.NetworkAll}})
		res := run(t, sb, "echo ok", sandbox.RunCommandOptions{})
		assert.Equal(t, "ok\n", res.Stdout, res.Stderr)
		nets := inspect(t, sb.ID())["NetworkSettings"].(map[string]any)["Networks"].(map[string]any)
		require.Contains(t, nets, name)
		assert.Equal(t, ids[0], nets[name].(map[string]any)["NetworkID"], "the first network made is the one taken")
	}
	out, err = exec.Command("docker", "network", "ls", "-q", "--no-trunc", "--filter", "name="+name).Output()
	require.NoError(t, err)
	assert.Equal(t, []string{ids[0]}, strings.Fields(string(out)), "the unused duplicate is removed")
}
