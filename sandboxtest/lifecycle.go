package sandboxtest

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/sandbox"
)

var lifecycleCases = []Case{
	{
		Name: "life/connect",
		Rule: "Connect by id from a fresh provider value (another process) finds the same sandbox and its files.",
		Check: func(e *Env) {
			require.NoError(e.T, e.Sandbox.FileSystem().WriteFile(e.Ctx, "kept.txt", []byte("still here")))
			other := e.Harness.NewProvider(e.T)
			sb, err := other.Connect(e.Ctx, e.Sandbox.ID())
			require.NoError(e.T, err)
			assert.Equal(e.T, e.Sandbox.ID(), sb.ID())
			assert.Equal(e.T, e.Provider.Name(), sb.Provider())
			got, err := sb.FileSystem().ReadFile(e.Ctx, "kept.txt")
			require.NoError(e.T, err)
			assert.Equal(e.T, "still here", got)
			res, err := sb.RunCommand(e.Ctx, "cat kept.txt; echo; echo from-b > b.txt", sandbox.RunCommandOptions{})
			require.NoError(e.T, err)
			assert.Equal(e.T, "still here\n", res.Stdout)
			// And back: the first handle sees what the second wrote.
			got, err = e.Sandbox.FileSystem().ReadFile(e.Ctx, "b.txt")
			require.NoError(e.T, err)
			assert.Equal(e.T, "from-b\n", got)
		},
	},
	{
		Name:      "life/connect-unknown",
		Rule:      "Connect to an id that never existed is ErrGone.",
		NoSandbox: true,
		Check: func(e *Env) {
			for _, id := range []string{"never-existed-0000", "../../etc", ""} {
				_, err := e.Provider.Connect(e.Ctx, id)
				assert.ErrorIs(e.T, err, sandbox.ErrGone, "Connect(%q)", id)
			}
		},
	},
	{
		Name: "life/destroy",
		Rule: "A destroyed sandbox is ErrGone on Connect and on every use; Destroy again returns nil.",
		Check: func(e *Env) {
			sb := e.Sandbox
			require.NoError(e.T, sb.FileSystem().WriteFile(e.Ctx, "x.txt", []byte("x")))
			require.NoError(e.T, sb.Destroy(e.Ctx))
			_, err := e.Harness.NewProvider(e.T).Connect(e.Ctx, sb.ID())
			assert.ErrorIs(e.T, err, sandbox.ErrGone, "Connect after Destroy")
			assertGone(e, sb)
			assert.NoError(e.T, sb.Destroy(e.Ctx), "a second Destroy")
		},
	},
	{
		Name:  "life/set-timeout-ends-it",
		Rule:  "SetTimeout(d) makes the sandbox end by itself d after now, with no call from the app.",
		Needs: []Capability{CapSelfExpiry},
		Check: func(e *Env) {
			sb := e.Sandbox
			require.NoError(e.T, sb.SetTimeout(e.Ctx, 2*time.Second))
			info, err := sb.GetInfo(e.Ctx)
			require.NoError(e.T, err)
			assert.WithinDuration(e.T, time.Now().Add(2*time.Second), info.EndAt, 2*time.Second, "EndAt after SetTimeout")
			deadline := time.Now().Add(2*time.Second + e.Harness.ExpiryWithin)
			time.Sleep(2 * time.Second)
			for {
				_, err = e.Harness.NewProvider(e.T).Connect(e.Ctx, sb.ID())
				if err != nil || time.Now().After(deadline) {
					break
				}
				time.Sleep(250 * time.Millisecond)
			}
			require.ErrorIs(e.T, err, sandbox.ErrGone, "Connect after the end")
			assertGone(e, sb)
		},
	},
	{
		Name: "life/set-timeout-moves-end",
		Rule: "SetTimeout moves the end: GetInfo's EndAt right after it is about now + d, later or earlier.",
		Check: func(e *Env) {
			for _, d := range []time.Duration{50 * time.Minute, 20 * time.Minute, 45 * time.Minute, 15 * time.Minute} {
				require.NoError(e.T, e.Sandbox.SetTimeout(e.Ctx, d))
				info, err := e.Sandbox.GetInfo(e.Ctx)
				require.NoError(e.T, err)
				assert.WithinDuration(e.T, time.Now().Add(d), info.EndAt, 5*time.Second, "EndAt after SetTimeout(%s)", d)
			}
			assert.Equal(e.T, "alive\n", e.Run("echo alive", sandbox.RunCommandOptions{}).Stdout)
		},
	},
	{
		Name:      "life/info",
		Rule:      "GetInfo reports the id, the provider, a running status, an absolute work folder, the creation and end times and the metadata given at creation.",
		NoSandbox: true,
		Check: func(e *Env) {
			opts := e.Harness.Create
			opts.Metadata = map[string]string{"thread": "t-1", "app": "sandboxtest"}
			before := time.Now()
			sb := e.Create(opts)
			info, err := sb.GetInfo(e.Ctx)
			require.NoError(e.T, err)
			assert.Equal(e.T, sb.ID(), info.ID)
			assert.NotEmpty(e.T, info.ID)
			assert.Equal(e.T, e.Provider.Name(), info.Provider)
			assert.Equal(e.T, e.Provider.Name(), sb.Provider())
			assert.Equal(e.T, sandbox.StatusRunning, info.Status)
			assert.True(e.T, strings.HasPrefix(info.Workdir, "/"), "Workdir %q", info.Workdir)
			assert.WithinDuration(e.T, before, info.CreatedAt, time.Minute, "CreatedAt")
			assert.True(e.T, info.EndAt.After(time.Now()), "EndAt %v is in the future", info.EndAt)
			assert.Equal(e.T, "t-1", info.Metadata["thread"])
			assert.Equal(e.T, "sandboxtest", info.Metadata["app"])
		},
	},
	{
		Name:      "life/random-differs",
		Rule:      "Each new sandbox starts with random state of its own: $RANDOM's first values differ between two sandboxes made alike (a sandbox started as a copy of another instance must be reseeded).",
		NoSandbox: true,
		Check: func(e *Env) {
			var got []string
			for range 2 {
				sb := e.Create(e.Harness.Create)
				res, err := sb.RunCommand(e.Ctx, `echo $RANDOM $RANDOM $RANDOM`, sandbox.RunCommandOptions{})
				require.NoError(e.T, err)
				require.Equal(e.T, 0, res.ExitCode, "stderr: %s", res.Stderr)
				fields := strings.Fields(res.Stdout)
				require.Len(e.T, fields, 3, "stdout %q", res.Stdout)
				for _, f := range fields {
					n, err := strconv.Atoi(f)
					require.NoError(e.T, err, "$RANDOM gave %q", f)
					assert.True(e.T, n >= 0 && n <= 32767, "$RANDOM %d is outside 0..32767", n)
				}
				got = append(got, res.Stdout)
			}
			assert.NotEqual(e.T, got[0], got[1], "two new sandboxes gave the same $RANDOM values")
		},
	},
	{
		Name:      "life/url",
		Rule:      "GetURL gives an http URL for a declared port, or ErrUnsupported saying which adapter offers one.",
		NoSandbox: true,
		Check: func(e *Env) {
			opts := e.Harness.Create
			opts.Ports = []int{8080}
			opts.Network = sandbox.Network{Mode: sandbox.NetworkAll} // a reachable port needs a network
			if _, unsupported := e.Harness.Unsupported[CapURL]; unsupported {
				opts.Ports, opts.Network = nil, e.Harness.Create.Network
			}
			sb := e.Create(opts)
			u, err := sb.GetURL(e.Ctx, 8080, "http")
			if reason, unsupported := e.Harness.Unsupported[CapURL]; unsupported {
				require.ErrorIs(e.T, err, sandbox.ErrUnsupported, "GetURL of an adapter without URLs (%s)", reason)
				assert.Greater(e.T, len(err.Error()), len(sandbox.ErrUnsupported.Error())+10, "the error says more than the sentinel: %q", err)
				return
			}
			require.NoError(e.T, err)
			parsed, err := url.Parse(u)
			require.NoError(e.T, err)
			assert.Equal(e.T, "http", parsed.Scheme)
			assert.NotEmpty(e.T, parsed.Host)
		},
	},
	{
		Name:      "life/network-policies",
		Rule:      "Network all and allow lists are either offered or refused with ErrUnsupported at Create; never accepted and ignored.",
		NoSandbox: true,
		Check: func(e *Env) {
			for _, c := range []struct {
				cap Capability
				net sandbox.Network
			}{
				{CapNetworkAll, sandbox.Network{Mode: sandbox.NetworkAll}},
				{CapNetworkAllowList, sandbox.AllowDomains("example.com")},
			} {
				opts := e.Harness.Create
				opts.Network = c.net
				sb, err := e.Provider.Create(e.Ctx, opts)
				if sb != nil {
					_ = sb.Destroy(context.Background())
				}
				if _, unsupported := e.Harness.Unsupported[c.cap]; unsupported {
					assert.ErrorIs(e.T, err, sandbox.ErrUnsupported, "Create with network %s", c.net)
				} else {
					assert.NoError(e.T, err, "Create with network %s", c.net)
				}
			}
		},
	},
	{
		Name:      "life/unknown-extra",
		Rule:      "An Extra option the adapter does not know is an error at Create, never ignored.",
		NoSandbox: true,
		Check: func(e *Env) {
			opts := e.Harness.Create
			opts.Extra = map[string]any{"no-such-option-agentenkit": true}
			sb, err := e.Provider.Create(e.Ctx, opts)
			if sb != nil {
				_ = sb.Destroy(context.Background())
			}
			assert.Error(e.T, err)
		},
	},
}

// assertGone checks that every use of sb fails with ErrGone.
func assertGone(e *Env, sb sandbox.Sandbox) {
	e.T.Helper()
	_, err := sb.RunCommand(e.Ctx, "echo hi", sandbox.RunCommandOptions{})
	assert.ErrorIs(e.T, err, sandbox.ErrGone, "RunCommand on a gone sandbox")
	_, err = sb.FileSystem().ReadFile(e.Ctx, "x.txt")
	assert.ErrorIs(e.T, err, sandbox.ErrGone, "ReadFile on a gone sandbox")
	err = sb.FileSystem().WriteFile(e.Ctx, "y.txt", []byte("y"))
	assert.ErrorIs(e.T, err, sandbox.ErrGone, "WriteFile on a gone sandbox")
	_, err = sb.GetInfo(e.Ctx)
	assert.ErrorIs(e.T, err, sandbox.ErrGone, "GetInfo on a gone sandbox")
	assert.ErrorIs(e.T, sb.SetTimeout(e.Ctx, time.Minute), sandbox.ErrGone, "SetTimeout on a gone sandbox")
}
