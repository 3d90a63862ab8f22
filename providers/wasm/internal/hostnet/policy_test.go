package hostnet

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/sandbox"
)

func TestPolicyAllows(t *testing.T) {
	p, err := Parse(sandbox.AllowDomains("api.example.com", "*.cdn.example.org", "pinned.example.net:8443", "Upper.Example.COM."))
	require.NoError(t, err)
	for _, tc := range []struct {
		host string
		port int
		ok   bool
	}{
		{"api.example.com", 443, true},
		{"API.EXAMPLE.COM.", 80, true},
		{"x.api.example.com", 443, false},
		{"example.com", 443, false},
		{"a.cdn.example.org", 443, true},
		{"a.b.cdn.example.org", 443, true},
		{"cdn.example.org", 443, false},
		{"evilcdn.example.org", 443, false},
		{"pinned.example.net", 8443, true},
		{"pinned.example.net", 443, false},
		{"upper.example.com", 443, true},
		{"api.example.com.evil.test", 443, false},
	} {
		err := p.Allows(tc.host, tc.port)
		if tc.ok {
			assert.NoError(t, err, "%s:%d", tc.host, tc.port)
		} else {
			assert.ErrorIs(t, err, ErrRefused, "%s:%d", tc.host, tc.port)
			assert.EqualError(t, err, "blocked by the sandbox's network policy: host not in allow list")
		}
	}
	none, err := Parse(sandbox.Network{})
	require.NoError(t, err)
	assert.ErrorIs(t, none.Allows("api.example.com", 443), ErrRefused)
	all, err := Parse(sandbox.Network{Mode: sandbox.NetworkAll})
	require.NoError(t, err)
	assert.NoError(t, all.Allows("anything.test", 1))
}

func TestParseRefusesBadEntries(t *testing.T) {
	for _, e := range []string{"", "*.", "a..b", "exa mple.com", "example.com:0", "example.com:99999", "*.1.2.3.4", "http://example.com", "a/b"} {
		_, err := Parse(sandbox.AllowDomains(e))
		assert.ErrorIs(t, err, ErrBadPolicy, "%q", e)
	}
	_, err := Parse(sandbox.Network{Mode: "some"})
	assert.ErrorIs(t, err, ErrBadPolicy)
	_, err = Parse(sandbox.Network{Mode: sandbox.NetworkAll, Allow: []string{"x.com"}})
	assert.ErrorIs(t, err, ErrBadPolicy)
}

func TestCheckAddr(t *testing.T) {
	for _, tc := range []struct {
		addr, why string
	}{
		{"127.0.0.1", "loopback"}, {"127.8.9.10", "loopback"}, {"::1", "loopback"},
		{"10.1.2.3", "private"}, {"172.16.0.1", "private"}, {"192.168.0.1", "private"}, {"fd00::1", "private"},
		{"169.254.169.254", "link-local"}, {"fe80::1", "link-local"},
		{"100.64.0.1", "reserved"}, {"100.127.255.255", "reserved"}, {"0.0.0.0", "unspecified"}, {"0.1.2.3", "reserved"},
		{"224.0.0.1", "multicast"}, {"ff02::1", "multicast"}, {"255.255.255.255", "reserved"},
		{"::ffff:10.0.0.1", "private"}, {"64:ff9b::a00:1", "embeds address 10.0.0.1 is private"}, {"2002:7f00:1::", "embeds address 127.0.0.1 is loopback"},
		{"fd00:ec2::254", "private"}, {"192.0.2.1", "reserved"},
		{"93.184.216.34", ""}, {"2606:4700::1111", ""}, {"100.128.0.1", ""},
	} {
		why := CheckAddr(netip.MustParseAddr(tc.addr))
		if tc.why == "" {
			assert.Empty(t, why, tc.addr)
		} else {
			assert.Contains(t, why, tc.why, tc.addr)
		}
	}
}

// The address check runs before any dial: these never leave the host.
func TestDialRefusesWithoutSending(t *testing.T) {
	all, _ := Parse(sandbox.Network{Mode: sandbox.NetworkAll})
	cfg := &Config{Policy: all, Resolve: map[string]string{"rebind.test": "127.0.0.1", "meta.test": "169.254.169.254"}}
	for _, host := range []string{"rebind.test", "meta.test", "10.0.0.1", "127.0.0.1", "::1"} {
		_, err := cfg.Dial(context.Background(), host, 80, "")
		var de *DialError
		require.True(t, errors.As(err, &de), "%s: %v", host, err)
		assert.Equal(t, CodeConnect, de.Code, host)
		assert.ErrorIs(t, err, ErrRefused, host)
	}
	_, err := cfg.Dial(context.Background(), "unknown.test", 80, "")
	var de *DialError
	require.True(t, errors.As(err, &de))
	assert.Equal(t, CodeResolve, de.Code)
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"example.com", "*.example.com:443", "1.2.3.4", "[::1]:80", "a..b", "*."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		p, err := Parse(sandbox.AllowDomains(entry))
		if err != nil {
			assert.ErrorIs(t, err, ErrBadPolicy)
			return
		}
		// An accepted entry allows only names that end in its host.
		r := p.rules[0]
		if p.Allows("attacker.invalid", 443) == nil && !strings.HasSuffix("attacker.invalid", r.host) {
			t.Fatalf("%q allows attacker.invalid", entry)
		}
	})
}

// A guest writes what it likes on a channel: never a panic, and with no
// command running nothing is dialled.
func FuzzChannel(f *testing.F) {
	for _, s := range []string{"CONNECT a.test 80\n", "CONNECT a.test 80 5\n", "TLS x\n", "RAW\n", "\n", "CONNECT a 99999999999999999999\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		ch := Open(&Config{}, nil)
		defer ch.Close()
		buf := make([]byte, 256)
		for _, line := range strings.SplitAfter(in, "\n") {
			if line == "" {
				continue
			}
			_, _ = ch.Write([]byte(line))
			n, _ := ch.Read(buf)
			if strings.HasPrefix(string(buf[:n]), "OK") {
				t.Fatalf("%q: a channel with no command answered OK", line)
			}
		}
	})
}
