// Package testenv decides what a test does when a service it needs (a Docker
// engine, a Redis server, bash) is missing: skip with the reason, or — where
// AGENTENKIT_REQUIRE names the service, as CI sets it — fail.
package testenv

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// Required reports whether AGENTENKIT_REQUIRE (a comma-separated list, such
// as "docker,redis") names service.
func Required(service string) bool {
	return slices.Contains(strings.Split(os.Getenv("AGENTENKIT_REQUIRE"), ","), service)
}

// Missing ends the test because service is not available: it fails when the
// service is required, and skips otherwise. why says what is missing and how
// to provide it.
func Missing(t testing.TB, service, why string) {
	t.Helper()
	if Required(service) {
		t.Fatalf("%s is required here (AGENTENKIT_REQUIRE=%s) but missing: %s", service, os.Getenv("AGENTENKIT_REQUIRE"), why)
	}
	t.Skipf("%s is not available: %s (set AGENTENKIT_REQUIRE=%s to make this a failure)", service, why, service)
}
