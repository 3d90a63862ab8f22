package wasm

import (
	"context"
	"crypto/x509"
	"log/slog"
	"sync/atomic"

	"github.com/agentenkit/agentenkit/providers/wasm/internal/hostnet"
)

// The network of a wasm sandbox: a guest has no socket of its own; it asks
// the host for a connection through a channel file (hostnet.ChannelPath,
// served by trackFS), and the host opens it after checking the sandbox's
// policy (CreateSandboxOptions.Network) — host name against the allow list,
// every resolved address against private and reserved ranges — and relays
// its bytes, doing TLS itself for https. Each command's connections share
// its time limit and Options.NetworkBytes.

// DefaultNetworkBytes is Options.NetworkBytes' default: 1 GiB per command.
const DefaultNetworkBytes = 1 << 30

// NetworkEvent is a connection a command asked for: opened (Allowed) or
// refused, with why.
type NetworkEvent = hostnet.Event

// TestNetwork lets tests reach servers they start on loopback, with names
// of their own and their own certificate authority. It is for tests only:
// no config file or CLI flag sets it.
type TestNetwork struct {
	// Resolve maps host names to addresses; no other name resolves (no
	// DNS is asked).
	Resolve map[string]string
	// AllowLoopback lets 127.0.0.0/8 and ::1 through the address check.
	AllowLoopback bool
	// RootCAs is what the host trusts for TLS instead of the system's roots.
	RootCAs *x509.CertPool
}

// netSession is one running command's network.
type netSession struct {
	cfg  *hostnet.Config
	sess *hostnet.Session
}

// netBegin makes ctx's command the one whose network the sandbox's channel
// opens serve, until the returned func is called. With commands running
// at once on one sandbox, a connection counts against the one started last.
func (st *state) netBegin(cfg *hostnet.Config, ctx context.Context, budget int64) func() {
	b := new(atomic.Int64)
	b.Store(budget)
	ns := &netSession{cfg: cfg, sess: &hostnet.Session{Ctx: ctx, Budget: b}}
	st.netMu.Lock()
	st.net = append(st.net, ns)
	st.netMu.Unlock()
	return func() {
		st.netMu.Lock()
		defer st.netMu.Unlock()
		for i, x := range st.net {
			if x == ns {
				st.net = append(st.net[:i], st.net[i+1:]...)
				break
			}
		}
	}
}

// netCurrent returns the network of the command started last, or nil.
func (st *state) netCurrent() *netSession {
	st.netMu.Lock()
	defer st.netMu.Unlock()
	if len(st.net) == 0 {
		return nil
	}
	return st.net[len(st.net)-1]
}

// netConfig is the host's configuration for one command of a sandbox
// whose live record is rec.
func (p *Provider) netConfig(rec *liveRecord) *hostnet.Config {
	pol, err := hostnet.Parse(rec.Network)
	if err != nil {
		pol = hostnet.Policy{} // checked at Create; a bad record has no network
	}
	cfg := &hostnet.Config{Policy: pol, Headers: p.opts.NetworkHeaders, Log: p.opts.OnNetwork}
	if cfg.Log == nil {
		cfg.Log = logNetwork
	}
	if t := p.opts.TestNetwork; t != nil {
		cfg.Resolve, cfg.AllowLoopback, cfg.RootCAs = t.Resolve, t.AllowLoopback, t.RootCAs
	}
	return cfg
}

// logNetwork logs refused connections with the default logger.
func logNetwork(ev NetworkEvent) {
	if !ev.Allowed {
		slog.Warn("wasm: connection refused", "host", ev.Host, "port", ev.Port, "reason", ev.Reason)
	}
}
