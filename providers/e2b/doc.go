// Package e2b is the E2B adapter: a sandbox is an E2B sandbox (a Firecracker
// VM in E2B's cloud), reached with net/http alone — E2B's control plane for
// the lifecycle and envd, the daemon inside each sandbox, for commands and
// files. No SDK.
//
//	p, err := e2b.New(apiKey, e2b.Options{}) // a missing key or bad URL is err
//	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{Network: sandbox.AllowDomains("api.example.com")})
//
// The key is given to New; nothing is read from the environment.
//
// # How the port maps to E2B
//
//   - Create is POST /v2/sandboxes with templateID (Options.Template,
//     default "base"), timeout in whole seconds (default 300), metadata,
//     envVars and the network (below); v2 sandboxes are always secure (envd
//     requires the X-Access-Token the answer carries). On a control plane
//     without v2 (a 404 that names no sandbox, 405 or 501) the provider
//     uses v1 from then on: POST /sandboxes with secure: true. Connect is
//     GET /sandboxes/{id}; a paused sandbox is resumed with POST
//     /v2/sandboxes/{id}/connect (v1: POST /sandboxes/{id}/connect). Destroy
//     is DELETE; SetTimeout is POST /sandboxes/{id}/timeout, which replaces
//     the end with now + d; GetInfo reads the sandbox's detail.
//   - Network none is allow_internet_access: false; all is true. An allow
//     list by domain is allow_internet_access: false with the network object
//     {"allowOut": [domains...], "denyOut": ["0.0.0.0/0"]}: everything is
//     denied but the listed domains (allowOut wins over denyOut in E2B, which
//     resolves the domains itself).
//   - Commands are /bin/bash -l -c COMMAND through envd's Process/Start
//     (Connect protocol, JSON, server streaming), output streamed live. The
//     time limit goes to envd as Connect-Timeout-Ms, which kills the command;
//     the adapter also enforces it (a little past the limit it sends
//     SIGKILL and stops reading). envd kills only the shell, so after a
//     time-out the adapter kills, by a second short command, every process
//     whose environment carries the command's AGENTENKIT_COMMAND_ID: the
//     background children too.
//   - Files are GET and POST /files (raw bytes, application/octet-stream:
//     envd 0.5.7 or later) and the Filesystem service (ListDir, MakeDir,
//     Remove, Stat).
//   - The work folder is Options.Workdir, or the folder envd starts commands
//     in (the template's workdir, else /home/user), asked once per handle.
//   - GetURL is <protocol>://<port>-<id>.<domain>: E2B routes every port.
//     The protocol defaults to https on E2B's domains (e2b.app, e2b.dev),
//     which serve ports over TLS only, and to http elsewhere.
//   - Gone: the control plane's 404 and the sandbox proxy's 502 "The sandbox
//     was not found" are ErrGone, on every call; so is a command stream that
//     breaks when the control plane then says the sandbox is gone.
//   - Errors from an answer wrap *APIError (method, path, status, E2B's code
//     and message); missing paths match fs.ErrNotExist, reading a folder
//     fs.ErrInvalid.
//   - Idempotent calls are retried on 429, 5xx (not a 502 "not found", 501
//     or 507 insufficient storage, which lasts) and transport errors: Options.Attempts tries (3), waiting
//     Options.RetryBackoff (100 ms) doubled each time with jitter, or what
//     Retry-After says. Creating a sandbox and starting a command are never
//     retried.
//
// # Limits
//
//   - CPU, memory and disk come from the template: Resources is
//     ErrUnsupported, as are Image (use Template) and RestoreFrom. Extra
//     takes no keys.
//   - SetTimeout rounds up to whole seconds (at least 1); E2B clamps the end
//     to the team's longest sandbox life (1 h on Hobby, 24 h on Pro).
//   - Killing a timed-out command's tree relies on /proc and on processes
//     keeping their environment; one that clears it, or runs as another
//     user, outlives its command.
//   - A handle made before the sandbox was paused sees ErrGone (envd is not
//     reached); Connect again to resume it.
//   - No stdin, PTY, background commands or file watching through the port.
//
// Package e2btest is an E2B-compatible server for tests, backed by any
// other adapter.
package e2b
