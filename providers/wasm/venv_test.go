package wasm

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/sandbox"
)

// TestVirtualEnvLikeHost: `python3 -m venv`, the environment's python run
// by its path and through activate's $PATH, deactivate, and a python3
// after it behave as the host's CPython and bash: the same files, modes,
// sys.prefix, sys.executable and site-packages (the host's run with
// --without-pip, which needs no ensurepip there), but for lib64, a link a
// 64-bit CPython adds to the environment (the sandbox's is wasm32), which
// the listing leaves out. Then, in the sandbox
// alone: venv's ensurepip links the environment's pip to the shell's,
// which answers for the environment's site-packages, by its path, by
// `python -m pip` and after activate; a python3 after the environment's
// is the system's again (on a prestarted CPython too).
func TestVirtualEnvLikeHost(t *testing.T) {
	p := poolProvider(t, Options{Prewarm: true})
	host := findHostPython(t, p.pythonVersion())
	ctx := context.Background()
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = sb.Destroy(context.Background()) })
	if res, err := sb.RunCommand(ctx, `python3 -c 'import venv'`, sandbox.RunCommandOptions{}); err != nil || res.ExitCode != 0 {
		t.Skipf("this python image has no venv module (the fetched one leaves it out): %v %+v", err, res)
	}

	script := `python3 -m venv --without-pip v && ls v/bin | tr '\n' ' '; echo
ls -l v/bin/activate v/pyvenv.cfg | cut -c1-10
v/bin/python -c 'import sys; print(sys.prefix == sys.base_prefix, sys.executable, sys.prefix, [p for p in sys.path if "site-packages" in p])'
. v/bin/activate && echo "$VIRTUAL_ENV" && which python python3 && python -c 'import sys, site; print(sys.executable, sys.prefix, site.ENABLE_USER_SITE)'
deactivate; echo "[$VIRTUAL_ENV]"; command -v deactivate || echo "no deactivate"
python3 -c 'import sys; print(sys.prefix == sys.base_prefix, sys.executable)'
python3 -m venv --without-pip --system-site-packages s && s/bin/python3 -c 'import sys; print(sys.prefix, sys.path[-2])'`
	want := host.run(t, script, nil, nil)
	got, err := sb.RunCommand(ctx, script, sandbox.RunCommandOptions{})
	require.NoError(t, err)
	// The host's base prefix and user site are its own.
	assert.Equal(t, want.stdout, got.Stdout, "stdout")
	assert.Equal(t, want.stderr, got.Stderr, "stderr")
	assert.Equal(t, want.code, got.ExitCode, "exit status")

	res, err := sb.RunCommand(ctx, `python3 -m venv w && ls w/bin | grep pip | tr '\n' ' '; echo
w/bin/pip --version; w/bin/python -m pip --version; w/bin/pip3.11 list 2>/dev/null | head -1
. w/bin/activate && pip --version && python3 -m pip --version; deactivate
pip --version; python3 -m ensurepip; python3 -c 'import sys; print(sys.prefix == sys.base_prefix)'`, sandbox.RunCommandOptions{})
	require.NoError(t, err)
	require.Equal(t, 0, res.ExitCode, "stderr: %s", res.Stderr)
	lines := strings.Split(res.Stdout, "\n")
	require.GreaterOrEqual(t, len(lines), 9, "stdout: %s", res.Stdout)
	minor := "python" + strings.Join(strings.Split(p.pythonVersion(), ".")[:2], ".")
	venvSite := DefaultWorkdir + "/w/lib/" + minor + "/site-packages"
	userSite := DefaultWorkdir + "/.local/lib/" + minor + "/site-packages"
	assert.Equal(t, "pip pip3 pip"+strings.TrimPrefix(minor, "python")+" ", lines[0])
	for i := 1; i <= 2; i++ {
		assert.Contains(t, lines[i], " from "+venvSite+"/pip ", "line %d", i)
	}
	for i := 4; i <= 5; i++ {
		assert.Contains(t, lines[i], " from "+venvSite+"/pip ", "line %d (activated)", i)
	}
	assert.Contains(t, lines[6], " from "+userSite+"/pip ", "after deactivate")
	assert.Equal(t, "Requirement already satisfied: pip in "+userSite+" (24.0)", lines[7])
	assert.Equal(t, "True", lines[8])
}
