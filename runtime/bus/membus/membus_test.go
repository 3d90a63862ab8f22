package membus_test

import (
	"testing"

	"github.com/agentenkit/agentenkit/runtime/bus"
	"github.com/agentenkit/agentenkit/runtime/bus/bustest"
	"github.com/agentenkit/agentenkit/runtime/bus/membus"
)

func TestConformance(t *testing.T) {
	buses := map[string]bus.Bus{}
	bustest.Run(t, func(t *testing.T) bus.Bus {
		if b, ok := buses[t.Name()]; ok {
			return b
		}
		b := membus.New()
		buses[t.Name()] = b
		return b
	})
}
