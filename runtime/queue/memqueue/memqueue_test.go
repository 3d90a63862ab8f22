package memqueue_test

import (
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/runtime/queue"
	"github.com/agentenkit/agentenkit/runtime/queue/memqueue"
	"github.com/agentenkit/agentenkit/runtime/queue/queuetest"
)

func TestConformance(t *testing.T) {
	queues := map[string]queue.Queue{}
	queuetest.Run(t, func(t *testing.T, vis time.Duration) queue.Queue {
		if q, ok := queues[t.Name()]; ok {
			return q
		}
		q := memqueue.New(memqueue.Options{Visibility: vis})
		queues[t.Name()] = q
		return q
	})
}
