package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentenkit/agentenkit"
	"github.com/agentenkit/agentenkit/providers/docker"
	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/sandbox"
)

// providerNames lists what --provider takes.
var providerNames = []string{"local", "docker", "memory"}

// defaultProvider is the embedded default.
const defaultProvider = "local"

// newProvider returns the provider named by --provider, configured from the
// environment where it needs settings (DOCKER_HOST, AGENTENKIT_DOCKER_IMAGE).
func newProvider(name string) (sandbox.Provider, error) {
	switch name {
	case "local":
		return localsandbox.New(localsandbox.Options{Root: filepath.Join(agentenkit.StateDir(), "local")}), nil
	case "docker":
		img := os.Getenv("AGENTENKIT_DOCKER_IMAGE")
		if img == "" {
			img = "agentenkit-test-python:1"
		}
		return docker.New(docker.Options{Image: img}), nil
	case "memory":
		return memory.New(memory.Options{}), nil
	}
	return nil, fmt.Errorf("unknown provider %q (one of: %s)", name, strings.Join(providerNames, ", "))
}
