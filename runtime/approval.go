package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"

	"github.com/agentenkit/agentenkit/runtime/queue"
	"github.com/agentenkit/agentenkit/runtime/storage"
)

// Approval is a person's answer to a pending call.
type Approval struct {
	ToolCallID string `json:"toolCallId"`
	Approved   bool   `json:"approved"`
	// Message goes to the model with a denial ("use ls instead").
	Message string `json:"message,omitempty"`
}

// PendingApproval is a call a parked run waits on.
type PendingApproval struct {
	ToolCallID string          `json:"toolCallId"`
	Tool       string          `json:"tool"`
	Input      json.RawMessage `json:"input"`
	// Agent is the agent that made the call (a subagent's name, for a
	// call inside a subagent).
	Agent string `json:"agent"`
}

var (
	// ErrNotParked: Respond to a run that is not parked.
	ErrNotParked = errors.New("runtime: the run is not parked")
	// ErrUnknownToolCall: Respond with a tool call id the run does not
	// wait on.
	ErrUnknownToolCall = errors.New("runtime: the run does not wait on this tool call")
)

// DeniedResult is what the model gets for a call a person denied, followed
// by " Their message: <message>" when they gave one.
const DeniedResult = "The user denied this tool call; it did not run."

// JobResume is the queue job kind that resumes a parked run.
const JobResume = "resume"

// resumeJob is the payload of a JobResume job.
type resumeJob struct {
	RunID    string `json:"runId"`
	ThreadID string `json:"threadId"`
}

// Respond answers some or all of a parked run's pending calls. Once every
// pending call has an answer, it enqueues a job to resume the run, which
// any worker (Work, on any runtime sharing the storage and queue) picks up:
// approved calls run, denied ones reach the model as a denied result
// (DeniedResult, with the message). Answering a call again is ignored;
// Respond with no approvals re-enqueues an answered run's resume.
func (rt *Runtime) Respond(ctx context.Context, runID string, approvals []Approval) error {
	core := rt.agents
	var (
		ready bool
		job   queue.Job
	)
	_, err := core.storage.UpdateRun(ctx, runID, func(r *storage.Run) error {
		if lifecycle.RunState(r.State) != lifecycle.RunParked {
			return fmt.Errorf("%w: run %s is %s", ErrNotParked, runID, r.State)
		}
		data, err := decodeRunData(r.Data)
		if err != nil {
			return err
		}
		for _, a := range approvals {
			if err := data.answer(a); err != nil {
				return fmt.Errorf("%w: %s in run %s", err, a.ToolCallID, runID)
			}
		}
		ready = len(data.Pending) == 0
		payload, _ := json.Marshal(resumeJob{RunID: runID, ThreadID: r.ThreadID})
		job = queue.Job{ID: fmt.Sprintf("resume/%s/%d", runID, data.Parks), Kind: JobResume, Payload: payload}
		r.Data, err = json.Marshal(data)
		return err
	})
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("runtime: respond to run %s: no such run (was its thread deleted?): %w", runID, err)
	}
	if err != nil {
		return err
	}
	if !ready {
		return nil
	}
	if err := core.queue.Enqueue(ctx, job); err != nil {
		return fmt.Errorf("runtime: enqueue the resume of run %s (Respond again to retry): %w", runID, err)
	}
	return nil
}

// answer records a against the pending call it names.
func (d *runData) answer(a Approval) error {
	for i, p := range d.Pending {
		if p.ToolCallID != a.ToolCallID {
			continue
		}
		for _, f := range d.Frames {
			if f.Step != nil && f.Step.asks(a.ToolCallID) {
				if f.Step.Decisions == nil {
					f.Step.Decisions = map[string]Approval{}
				}
				f.Step.Decisions[a.ToolCallID] = a
			}
		}
		d.Pending = append(d.Pending[:i], d.Pending[i+1:]...)
		return nil
	}
	for _, f := range d.Frames {
		if f.Step != nil {
			if _, ok := f.Step.Decisions[a.ToolCallID]; ok {
				return nil // answered before
			}
		}
	}
	return ErrUnknownToolCall
}
