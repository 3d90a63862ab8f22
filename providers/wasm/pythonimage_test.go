package wasm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/sandbox"
)

// TestPythonImageChoice: Options.PythonImage picks the fetched CPython
// 3.12 or the project's own 3.11 build, which is the default (the npm one
// while it is not built), the shell's python3.X and /usr/bin follow it, and
// an unknown name fails the command that runs python3, saying why. Where
// the built image is missing it checks the fallback and then skips, or
// fails when AGENTENKIT_REQUIRE names python-image (CI builds it).
func TestPythonImageChoice(t *testing.T) {
	needImages(t)
	t.Setenv(images.EnvPythonImage, "")
	paths, err := images.Find("")
	require.NoError(t, err)
	built := "3.12"
	if paths.BuiltPython != "" {
		built = "3.11"
	}
	// In one process, so that they share the busybox image: each
	// provider's shell answers its own image's python3.X.
	for _, tt := range []struct{ choice, want string }{
		{images.PythonImageNPM, "3.12"},
		{images.PythonImageBuilt, built},
		{"", built},
	} {
		p := newProvider(t, nil, wasm.Options{PythonImage: tt.choice})
		sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
		res := run(t, sb, `python3 -c 'import sys; print(sys.version)'`, sandbox.RunCommandOptions{})
		if !strings.HasPrefix(res.Stdout, tt.want+".") || res.ExitCode != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want version %s", tt.choice, res.ExitCode, res.Stdout, res.Stderr, tt.want)
		}
		res = run(t, sb, `ls /usr/bin | grep '^python3\.'; python`+tt.want+` -c 'import sys; print("%d.%d" % sys.version_info[:2])'`, sandbox.RunCommandOptions{})
		if want := "python" + tt.want + "\n" + tt.want + "\n"; res.Stdout != want {
			t.Errorf("%s: stdout %q, stderr %q; want %q", tt.choice, res.Stdout, res.Stderr, want)
		}
	}

	p := newProvider(t, nil, wasm.Options{PythonImage: "fast"})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	res, err := sb.RunCommand(context.Background(), "python3 -c pass", sandbox.RunCommandOptions{})
	if err == nil && res.ExitCode == 0 {
		t.Fatalf("an unknown python image ran python3: %+v", res)
	}
	if msg := res.Stderr; err != nil {
		msg += err.Error()
		if !strings.Contains(msg, `python image "fast"`) {
			t.Errorf("the failure does not name the image: %q", msg)
		}
	} else if !strings.Contains(msg, `python image "fast"`) {
		t.Errorf("the failure does not name the image: %q", msg)
	}
	if paths.BuiltPython == "" {
		testenv.Missing(t, "python-image", "the project's python image is not built (`make python-image`): the default ran the fetched one")
	}
}
