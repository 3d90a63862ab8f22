package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"

	"github.com/agentenkit/agentenkit/runtime/bus"
	"github.com/agentenkit/agentenkit/runtime/storage"
)

// EventType says what an Event reports.
type EventType string

const (
	// EventTextDelta: Text is the next piece of an agent's reply.
	EventTextDelta EventType = "text.delta"
	// EventToolCall: the model called Tool (ToolCallID, Input).
	EventToolCall EventType = "tool.call"
	// EventToolResult: the call's result (Text, IsError).
	EventToolResult EventType = "tool.result"
	// EventToolOutput: live output of a running call {toolCallId, tool,
	// stream, text}, published by tools through EmitToolOutput. Live only:
	// never kept in the thread.
	EventToolOutput EventType = "tool.output"
	// EventParked: the run waits for approvals (Pending); its lock is
	// released.
	EventParked EventType = "parked"
	// EventStopRequested: Stop asked the worker running the run to stop.
	EventStopRequested EventType = "stop.requested"
	// EventFinished: the run is done; Text is the final reply.
	EventFinished EventType = "finished"
	// EventFailed: the run failed; Error says why.
	EventFailed EventType = "failed"
	// EventStopped: the run was stopped.
	EventStopped EventType = "stopped"
)

// Event is one event of a run's stream, as it travels on the bus (JSON).
type Event struct {
	Type     EventType `json:"type"`
	RunID    string    `json:"runId"`
	ThreadID string    `json:"threadId,omitempty"`
	// Agent is the agent the event is about: the run's, or a subagent's.
	Agent      string            `json:"agent,omitempty"`
	ToolCallID string            `json:"toolCallId,omitempty"`
	Tool       string            `json:"tool,omitempty"`
	Stream     string            `json:"stream,omitempty"`
	Text       string            `json:"text,omitempty"`
	Input      json.RawMessage   `json:"input,omitempty"`
	IsError    bool              `json:"isError,omitempty"`
	Pending    []PendingApproval `json:"pending,omitempty"`
	Error      string            `json:"error,omitempty"`
}

// Final reports whether the event ends its run's stream: finished, failed
// or stopped.
func (e Event) Final() bool {
	switch e.Type {
	case EventFinished, EventFailed, EventStopped:
		return true
	}
	return false
}

func runTopic(runID string) string { return "run/" + runID }

// publish sends ev on the bus; a bus that fails drops it (events are live
// only; what matters is in storage).
func (c *agentCore) publish(ctx context.Context, ev Event) {
	raw, err := json.Marshal(ev)
	if err != nil {
		return
	}
	_ = c.bus.Publish(context.WithoutCancel(ctx), runTopic(ev.RunID), raw)
}

// Subscribe returns the live events of a run, on whichever runtime sharing
// the bus runs it: from now on, until the run finishes, fails or is
// stopped (the channel then closes after that event), or ctx ends. A run
// that has already ended gives just its final event. Parking does not end
// the stream: a resumed run's events follow.
func (rt *Runtime) Subscribe(ctx context.Context, runID string) (<-chan Event, error) {
	core := rt.agents
	subCtx, cancel := context.WithCancel(ctx)
	raw, err := core.bus.Subscribe(subCtx, runTopic(runID))
	if err != nil {
		cancel()
		return nil, fmt.Errorf("runtime: subscribe to run %s: %w", runID, err)
	}
	r, err := core.storage.GetRun(ctx, runID)
	if err != nil {
		cancel()
		if errors.Is(err, storage.ErrNotFound) {
			return nil, fmt.Errorf("runtime: subscribe to run %s: %w", runID, err)
		}
		return nil, err
	}
	out := make(chan Event, bus.Buffer)
	if ev, ended := finalEvent(r); ended {
		cancel()
		out <- ev
		close(out)
		return out, nil
	}
	go func() {
		defer cancel()
		defer close(out)
		for b := range raw {
			var ev Event
			if json.Unmarshal(b, &ev) != nil {
				continue
			}
			select {
			case out <- ev:
			case <-ctx.Done():
				return
			}
			if ev.Final() {
				return
			}
		}
	}()
	return out, nil
}

// finalEvent returns the final event of a run that has ended.
func finalEvent(r storage.Run) (Event, bool) {
	ev := Event{RunID: r.ID, ThreadID: r.ThreadID, Agent: r.Agent}
	switch lifecycle.RunState(r.State) {
	case lifecycle.RunFinished:
		ev.Type = EventFinished
		if d, err := decodeRunData(r.Data); err == nil {
			ev.Text = d.Text
		}
	case lifecycle.RunFailed:
		ev.Type, ev.Error = EventFailed, r.Error
	case lifecycle.RunStopped:
		ev.Type = EventStopped
	default:
		return Event{}, false
	}
	return ev, true
}
