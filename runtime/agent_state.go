package runtime

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentenkit/agentenkit/runtime/model"
)

// runData is what storage keeps of a run between its segments (storage.Run
// Data): the loop's frames, checkpointed after each model call and each
// tool call, so that a parked run, a retried run or a run whose worker
// died goes on from where it was.
type runData struct {
	// Frames by key: "" is the run's agent, whose messages are the
	// thread's; "/<call id>" is the subagent that call runs, and so on
	// down ("/<call id>/<call id>").
	Frames map[string]*frame `json:"frames,omitempty"`
	// Pending are the calls a parked run waits on, not yet answered.
	Pending []PendingApproval `json:"pending,omitempty"`
	// Parks counts how often the run parked (it names resume jobs).
	Parks int `json:"parks,omitempty"`
	// Text and StopReason are a finished run's.
	Text       string `json:"text,omitempty"`
	StopReason string `json:"stopReason,omitempty"`
}

// frame is one agent's loop within a run.
type frame struct {
	Agent string `json:"agent"`
	// Messages are a subagent's conversation (the top frame's are in the
	// thread).
	Messages []model.Message `json:"messages,omitempty"`
	// Steps counts the model calls made.
	Steps int `json:"steps"`
	// Step is the open step: a model reply with tool calls whose results
	// are not all in.
	Step *step `json:"step,omitempty"`
}

// step is a model reply with tool calls, and their results so far.
type step struct {
	Assistant model.Message `json:"assistant"`
	// Results, one per call in order; nil until the call has run.
	Results []*model.ToolResult `json:"results"`
	// Ask lists the calls that need approval.
	Ask []string `json:"ask,omitempty"`
	// Decisions are the answers to Ask.
	Decisions map[string]Approval `json:"decisions,omitempty"`
}

func (s *step) asks(callID string) bool { return slices.Contains(s.Ask, callID) }

// unanswered returns the step's calls that wait on an answer.
func (s *step) unanswered(agent string) []PendingApproval {
	var out []PendingApproval
	for i, c := range s.Assistant.ToolCalls() {
		if s.Results[i] != nil || !s.asks(c.ID) {
			continue
		}
		if _, ok := s.Decisions[c.ID]; !ok {
			out = append(out, PendingApproval{ToolCallID: c.ID, Tool: c.Name, Input: c.Input, Agent: agent})
		}
	}
	return out
}

func decodeRunData(raw json.RawMessage) (*runData, error) {
	d := &runData{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, d); err != nil {
			return nil, fmt.Errorf("runtime: the run's saved state is damaged: %w", err)
		}
	}
	if d.Frames == nil {
		d.Frames = map[string]*frame{}
	}
	return d, nil
}

// pending collects every frame's unanswered calls, outermost frame first.
func (d *runData) pending() []PendingApproval {
	keys := make([]string, 0, len(d.Frames))
	for k := range d.Frames {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if n := strings.Count(a, "/") - strings.Count(b, "/"); n != 0 {
			return n
		}
		return strings.Compare(a, b)
	})
	var out []PendingApproval
	for _, k := range keys {
		if f := d.Frames[k]; f.Step != nil {
			out = append(out, f.Step.unanswered(f.Agent)...)
		}
	}
	return out
}

// closeOut returns the top frame's open step as messages for the thread:
// the reply, and a result for each call, the ones that never ran saying
// why. nil when no step is open.
func (d *runData) closeOut(why string) []model.Message {
	f := d.Frames[""]
	if f == nil || f.Step == nil {
		return nil
	}
	st := f.Step
	tool := model.Message{Role: model.RoleTool}
	for i, c := range st.Assistant.ToolCalls() {
		r := st.Results[i]
		if r == nil {
			r = &model.ToolResult{ToolCallID: c.ID, Name: c.Name, Content: why, IsError: true}
		}
		tool.Parts = append(tool.Parts, model.Part{ToolResult: r})
	}
	f.Step = nil
	return []model.Message{st.Assistant, tool}
}
