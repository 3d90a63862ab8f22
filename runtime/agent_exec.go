package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"slices"

	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/storage"
)

var (
	// errParked unwinds the loop when a call waits on an approval.
	errParked = errors.New("runtime: the run waits on approvals")
	// errStopRequested is the cause of a run's ctx that Stop ended.
	errStopRequested = errors.New("runtime: the run was stopped")
	// errLockLost is the cause of a run's ctx whose run lock another
	// worker took over.
	errLockLost = errors.New("runtime: the run lost its run lock")
)

// execution is one segment of a run on this runtime: from Send or a
// resume, until the run parks or ends. It holds the thread's run lock.
type execution struct {
	rt       *Runtime
	core     *agentCore
	lock     *lifecycle.Run
	top      *Agent
	runID    string
	threadID string
	handle   *RunHandle // Send's; nil for a resumed segment
	data     *runData
	history  []model.Message // the thread's messages
}

// execute runs the segment in parent (a ctx carrying the run's values) and
// ends it: state saved, lock released, final event published.
func (x *execution) execute(parent context.Context, active *activeRun) RunResult {
	defer x.core.release(x.runID, active)
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	active.setCancel(cancel)
	// Stop requests from other runtimes arrive on the bus; subscribe
	// before the loop's first look at storage, so none is missed.
	stops, err := x.core.bus.Subscribe(ctx, runTopic(x.runID))
	if err != nil {
		return x.end(ctx, "", "", err)
	}
	go x.watch(ctx, cancel, stops)
	msgs, err := x.core.storage.Messages(ctx, x.threadID)
	if err != nil {
		return x.end(ctx, "", "", err)
	}
	for _, m := range msgs {
		x.history = append(x.history, m.Message)
	}
	text, stop, err := x.runFrame(ctx, "", x.top)
	return x.end(ctx, text, stop, err)
}

// watch ends ctx when the run lock is lost or another runtime asks the run
// to stop.
func (x *execution) watch(ctx context.Context, cancel context.CancelCauseFunc, stops <-chan []byte) {
	lost := x.lock.Lost()
	for {
		select {
		case <-ctx.Done():
			return
		case err, ok := <-lost:
			if ok && err != nil {
				cancel(fmt.Errorf("%w: %v", errLockLost, err))
				return
			}
			lost = nil
		case raw, ok := <-stops:
			if !ok {
				stops = nil
				continue
			}
			var ev Event
			if json.Unmarshal(raw, &ev) == nil && ev.Type == EventStopRequested {
				cancel(errStopRequested)
				return
			}
		}
	}
}

// emit publishes ev as an event of the run, and gives it to Send's handle.
func (x *execution) emit(ctx context.Context, ev Event) {
	ev.RunID, ev.ThreadID = x.runID, x.threadID
	x.core.publish(ctx, ev)
	if x.handle != nil {
		x.handle.events.push(ev)
	}
}

// stopping reports whether err (or ctx) says the run is being stopped.
func stopping(ctx context.Context, err error) bool {
	if errors.Is(err, errStopRequested) {
		return true
	}
	return ctx.Err() != nil && !errors.Is(context.Cause(ctx), errLockLost)
}

// checkStop returns an error when the run should stop: its ctx ended, or
// Stop marked it in storage.
func (x *execution) checkStop(ctx context.Context) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	r, err := x.core.storage.GetRun(ctx, x.runID)
	if err != nil {
		return err
	}
	if r.StopRequested {
		return errStopRequested
	}
	return nil
}

// checkpoint saves the run's state, so a later segment goes on from here.
func (x *execution) checkpoint(ctx context.Context) error {
	raw, err := json.Marshal(x.data)
	if err != nil {
		return err
	}
	_, err = x.core.storage.UpdateRun(context.WithoutCancel(ctx), x.runID, func(r *storage.Run) error {
		r.Data = raw
		return nil
	})
	return err
}

// runFrame runs one agent's loop, from its saved frame if it has one, and
// returns its final reply.
func (x *execution) runFrame(ctx context.Context, key string, agent *Agent) (text, stopReason string, err error) {
	f := x.data.Frames[key]
	if f == nil {
		f = &frame{Agent: agent.Name()}
		x.data.Frames[key] = f
	}
	for {
		if f.Step != nil {
			last := f.Step.Assistant.Text()
			if err := x.runStep(ctx, key, agent, f); err != nil {
				return "", "", err
			}
			if f.Steps >= agent.opts.MaxSteps {
				return last, "max_steps", nil
			}
		}
		if err := x.checkStop(ctx); err != nil {
			return "", "", err
		}
		resp, err := x.callModel(ctx, key, agent, f)
		if err != nil {
			return "", "", err
		}
		f.Steps++
		calls := resp.Message.ToolCalls()
		if len(calls) == 0 {
			if len(resp.Message.Parts) > 0 {
				if err := x.appendFrame(ctx, key, f, resp.Message); err != nil {
					return "", "", err
				}
			}
			return resp.Message.Text(), resp.StopReason, nil
		}
		st := &step{Assistant: resp.Message, Results: make([]*model.ToolResult, len(calls))}
		for _, c := range calls {
			if x.needsApproval(ctx, agent, c) {
				st.Ask = append(st.Ask, c.ID)
			}
		}
		f.Step = st
		if err := x.checkpoint(ctx); err != nil {
			return "", "", err
		}
	}
}

// needsApproval applies the called tool's (or subagent's) policy.
func (x *execution) needsApproval(ctx context.Context, agent *Agent, c model.ToolCall) bool {
	var policy lifecycle.ApprovalPolicy
	if t, ok := agent.tools[c.Name]; ok {
		policy = t.Approval
	} else if s, ok := agent.subs[c.Name]; ok {
		policy = s.opts.Approval
	}
	if policy == nil {
		return false
	}
	ask, err := policy(ctx, c.Input)
	return ask || err != nil
}

// runStep runs the open step's calls in order, once none waits on an
// answer, then adds the reply and the results to the frame's messages.
func (x *execution) runStep(ctx context.Context, key string, agent *Agent, f *frame) error {
	st := f.Step
	if len(st.unanswered(agent.Name())) > 0 {
		return errParked
	}
	for i, c := range st.Assistant.ToolCalls() {
		if st.Results[i] != nil {
			continue
		}
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		res, err := x.runCall(ctx, key, agent, st, c)
		if err != nil {
			return err
		}
		st.Results[i] = &res
		if err := x.checkpoint(ctx); err != nil {
			return err
		}
	}
	results := model.Message{Role: model.RoleTool}
	for _, r := range st.Results {
		results.Parts = append(results.Parts, model.Part{ToolResult: r})
	}
	if err := x.appendFrame(ctx, key, f, st.Assistant, results); err != nil {
		return err
	}
	f.Step = nil
	return x.checkpoint(ctx)
}

// appendFrame adds messages to a frame: to the thread for the run's agent,
// to the frame's own list for a subagent.
func (x *execution) appendFrame(ctx context.Context, key string, f *frame, msgs ...model.Message) error {
	if key != "" {
		f.Messages = append(f.Messages, msgs...)
		return nil
	}
	if x.appended(msgs) {
		return nil // a segment before this one stored them, then died
	}
	if err := appendThread(context.WithoutCancel(ctx), x.core.storage, x.threadID, x.runID, msgs...); err != nil {
		return err
	}
	x.history = append(x.history, msgs...)
	return nil
}

// appended reports whether the thread already ends with a step's results.
func (x *execution) appended(msgs []model.Message) bool {
	if len(msgs) != 2 || len(x.history) == 0 {
		return false
	}
	last := x.history[len(x.history)-1]
	if last.Role != model.RoleTool {
		return false
	}
	ids := func(m model.Message) []string {
		var out []string
		for _, r := range m.ToolResults() {
			out = append(out, r.ToolCallID)
		}
		return out
	}
	return slices.Equal(ids(last), ids(msgs[1]))
}

// callModel makes one model call of a frame, streaming its events.
func (x *execution) callModel(ctx context.Context, key string, agent *Agent, f *frame) (model.Response, error) {
	name := agent.opts.Model
	m, err := x.core.resolve(name)
	if err != nil {
		return model.Response{}, fmt.Errorf("runtime: model %q of agent %s: %w", name, agent.Name(), err)
	}
	msgs := x.history
	if key != "" {
		msgs = f.Messages
	}
	req := model.Request{System: agent.opts.System, Messages: slices.Clip(msgs), Tools: agent.specs, MaxTokens: agent.opts.MaxTokens}
	start := x.rt.sb.Config().Now()
	resp, err := model.Collect(m.Stream(ctx, req), func(ev model.Event) {
		switch ev.Type {
		case model.EventTextDelta:
			x.emit(ctx, Event{Type: EventTextDelta, Agent: agent.Name(), Text: ev.Text})
		case model.EventToolCall:
			x.emit(ctx, Event{Type: EventToolCall, Agent: agent.Name(), ToolCallID: ev.ToolCall.ID, Tool: ev.ToolCall.Name, Input: ev.ToolCall.Input})
		}
	})
	if err != nil {
		if ctx.Err() != nil {
			return model.Response{}, context.Cause(ctx)
		}
		return model.Response{}, fmt.Errorf("runtime: model %q: %w", name, err)
	}
	modelID := resp.Usage.Model
	if modelID == "" {
		modelID = name
	}
	err = x.addUsage(ctx, storage.UsageRow{
		Agent: agent.Name(), Kind: storage.KindModel, Model: name, ModelID: modelID,
		InputTokens: resp.Usage.InputTokens, OutputTokens: resp.Usage.OutputTokens,
		Seconds: x.rt.sb.Config().Now().Sub(start).Seconds(),
	})
	return resp, err
}

func (x *execution) addUsage(ctx context.Context, row storage.UsageRow) error {
	row.RunID, row.ThreadID = x.runID, x.threadID
	return x.core.storage.AddUsage(context.WithoutCancel(ctx), []storage.UsageRow{row})
}

// end ends the segment: the run's state saved, its lock released (End,
// which also ends a run-scoped sandbox), the parked or final event
// published.
func (x *execution) end(ctx context.Context, text, stopReason string, err error) RunResult {
	bg := context.WithoutCancel(ctx)
	res := RunResult{RunID: x.runID, ThreadID: x.threadID}
	final := Event{Agent: x.top.Name()}
	switch {
	case errors.Is(err, errParked):
		x.data.Parks++
		x.data.Pending = x.data.pending()
		res.State, res.Pending = lifecycle.RunParked, x.data.Pending
		final.Type, final.Pending = EventParked, res.Pending
	case err != nil && errors.Is(context.Cause(ctx), errLockLost):
		// Another worker has the run now: leave its state, and its
		// run-scoped sandbox, to it.
		x.lock.Forget(bg)
		res.State, res.Error = lifecycle.RunFailed, context.Cause(ctx).Error()
		x.finish(res)
		return res
	case err != nil && stopping(ctx, err):
		if msgs := x.data.closeOut(stoppedResult); msgs != nil {
			if aerr := appendThread(bg, x.core.storage, x.threadID, x.runID, msgs...); aerr != nil {
				err = aerr
			}
		}
		x.data = &runData{}
		res.State = lifecycle.RunStopped
		final.Type = EventStopped
	case err != nil:
		// The saved state stays: Retry goes on from it.
		res.State, res.Error = lifecycle.RunFailed, err.Error()
		final.Type, final.Error = EventFailed, res.Error
	default:
		x.data = &runData{Text: text, StopReason: stopReason}
		res.State, res.Text, res.StopReason = lifecycle.RunFinished, text, stopReason
		final.Type, final.Text = EventFinished, text
	}
	raw, merr := json.Marshal(x.data)
	if res.State == lifecycle.RunStopped || merr != nil {
		raw = nil
	}
	if _, uerr := x.core.storage.UpdateRun(bg, x.runID, func(r *storage.Run) error {
		r.State, r.Error, r.Data, r.StopRequested = string(res.State), res.Error, raw, false
		return nil
	}); uerr != nil && res.Error == "" {
		res.Error = "the run's state was not saved: " + uerr.Error()
	}
	_ = x.lock.End(bg, res.State)
	x.emit(bg, final)
	x.finish(res)
	return res
}

func (x *execution) finish(res RunResult) {
	if x.handle != nil {
		x.handle.finish(res)
	}
}
