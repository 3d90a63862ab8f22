// Package hostnet is the wasm adapter's network: the host opens every
// connection a guest asks for, after checking it against the sandbox's
// policy, and relays its bytes (doing TLS itself for https, since the WASI
// CPython has no ssl module). Guests reach it through one channel, a file
// the adapter serves at ChannelPath (see channel.go for the protocol): the
// busybox image's curl, wget, node fetch and pip, and CPython's socket and
// ssl shims, all use it.
//
// A connection is allowed only when its host name matches the policy and
// every address the name resolves to is public: loopback, private,
// link-local (cloud metadata), CGNAT, multicast and reserved addresses are
// refused even under NetworkAll, and the address that was checked is the
// one dialled, so a second DNS answer cannot slip another one in.
package hostnet

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/sandbox"
)

// Policy is a sandbox's network policy, parsed.
type Policy struct {
	mode  sandbox.NetworkMode
	rules []rule
}

// rule is one allow-list entry: an exact host or "*.domain" (any name
// under domain, not domain itself), with a port or any (0).
type rule struct {
	host     string // lower case, no trailing dot
	wildcard bool
	port     int
}

// ErrBadPolicy is an allow-list entry that is not a host, "*.domain" or
// either with ":port".
var ErrBadPolicy = errors.New("bad network allow-list entry")

// Parse checks a sandbox's Network option.
func Parse(n sandbox.Network) (Policy, error) {
	p := Policy{mode: n.Mode}
	switch n.Mode {
	case sandbox.NetworkNone, sandbox.NetworkAll:
		if len(n.Allow) > 0 {
			return p, fmt.Errorf("%w: Allow is set but Mode is %q; use sandbox.AllowDomains", ErrBadPolicy, n.String())
		}
		return p, nil
	case sandbox.NetworkAllowList:
	default:
		return p, fmt.Errorf("%w: unknown network mode %q (want none, all or allow)", ErrBadPolicy, n.Mode)
	}
	for _, e := range n.Allow {
		r, err := parseRule(e)
		if err != nil {
			return p, err
		}
		p.rules = append(p.rules, r)
	}
	return p, nil
}

func parseRule(e string) (rule, error) {
	bad := func(why string) (rule, error) {
		return rule{}, fmt.Errorf("%w %q: %s (want example.com, *.example.com, or either with :port)", ErrBadPolicy, e, why)
	}
	s := strings.ToLower(strings.TrimSpace(e))
	var r rule
	if h, port, err := net.SplitHostPort(s); err == nil {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return bad("the port is not 1-65535")
		}
		s, r.port = h, n
	}
	s = strings.TrimSuffix(s, ".")
	if rest, ok := strings.CutPrefix(s, "*."); ok {
		r.wildcard, s = true, rest
	}
	if s == "" {
		return bad("no host")
	}
	if _, err := netip.ParseAddr(s); err == nil {
		if r.wildcard {
			return bad("a wildcard over an address")
		}
		r.host = s
		return r, nil
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 {
			return bad("an empty or too long label")
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return bad(fmt.Sprintf("%q is not allowed in a host name", c))
			}
		}
	}
	r.host = s
	return r, nil
}

// Allows reports whether host:port passes the policy's name check (the
// addresses are checked when the name is resolved), or why not.
func (p Policy) Allows(host string, port int) error {
	switch p.mode {
	case sandbox.NetworkNone:
		return &Refused{Host: host, Reason: "the sandbox has no network (Network is none)"}
	case sandbox.NetworkAll:
		return nil
	}
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	for _, r := range p.rules {
		if r.port != 0 && r.port != port {
			continue
		}
		if r.wildcard && strings.HasSuffix(h, "."+r.host) || !r.wildcard && h == r.host {
			return nil
		}
	}
	return &Refused{Host: host, Reason: "host not in allow list"}
}

// Refused is a connection the policy does not allow.
type Refused struct {
	Host   string
	Reason string
}

func (e *Refused) Error() string {
	return "blocked by the sandbox's network policy: " + e.Reason
}

// Is makes a Refused match sandbox.ErrUnsupported's sibling test errors:
// errors.Is(err, ErrRefused).
func (e *Refused) Is(target error) bool { return target == ErrRefused }

// ErrRefused matches every Refused.
var ErrRefused = errors.New("blocked by the sandbox's network policy")

// cgnat, and the other ranges netip has no predicate for.
var blockedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // CGNAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, broadcast
	netip.MustParsePrefix("100::/64"),        // discard
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
}

// embedded are IPv6 ranges that carry an IPv4 address in them.
var (
	nat64  = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4 = netip.MustParsePrefix("2002::/16")
)

// CheckAddr returns why a is not a public address, or "".
func CheckAddr(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case !a.IsValid():
		return "not an address"
	case a.IsLoopback():
		return "address " + a.String() + " is loopback"
	case a.IsPrivate():
		return "address " + a.String() + " is private"
	case a.IsLinkLocalUnicast():
		return "address " + a.String() + " is link-local (cloud metadata)"
	case a.IsMulticast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast():
		return "address " + a.String() + " is multicast"
	case a.IsUnspecified():
		return "address " + a.String() + " is unspecified"
	}
	for _, p := range blockedPrefixes {
		if p.Contains(a) {
			return "address " + a.String() + " is reserved"
		}
	}
	if a.Is6() {
		b := a.As16()
		var v4 netip.Addr
		switch {
		case nat64.Contains(a):
			v4 = netip.AddrFrom4([4]byte(b[12:16]))
		case sixTo4.Contains(a):
			v4 = netip.AddrFrom4([4]byte(b[2:6]))
		}
		if v4.IsValid() {
			if why := CheckAddr(v4); why != "" {
				return "address " + a.String() + " embeds " + why
			}
		}
	}
	return ""
}
