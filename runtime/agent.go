package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"sync"

	"github.com/agentenkit/agentenkit/runtime/bus"
	"github.com/agentenkit/agentenkit/runtime/bus/membus"
	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/pricing"
	"github.com/agentenkit/agentenkit/runtime/queue"
	"github.com/agentenkit/agentenkit/runtime/queue/memqueue"
	"github.com/agentenkit/agentenkit/runtime/storage"
	"github.com/agentenkit/agentenkit/runtime/storage/memstorage"
)

// DefaultMaxSteps caps an agent's model calls per run when
// AgentOptions.MaxSteps is 0.
const DefaultMaxSteps = 20

// AgentOptions describe an agent.
type AgentOptions struct {
	// Name names the agent, uniquely within a runtime. A parked run is
	// resumed by the agent of its name on whichever worker picks it up, so
	// every worker creates the same agents.
	Name string
	// Description tells a parent agent what this one does, when it is a
	// subagent.
	Description string
	// Model is the model's name, for Options.ResolveModel.
	Model string
	// System is the system prompt.
	System string
	// Tools the model may call.
	Tools []lifecycle.Tool
	// Subagents the model may call as tools named after them, with input
	// {"prompt": "…"}; the result is the subagent's final reply. They run
	// in the same run (ctx), so they share its sandbox, its events and its
	// approvals.
	Subagents []*Agent
	// Approval, for a subagent: whether a call of it needs approval.
	Approval lifecycle.ApprovalPolicy
	// MaxSteps caps the model calls of one run of the agent; default
	// DefaultMaxSteps. The run then ends after the last step's tool calls
	// with stop reason "max_steps".
	MaxSteps int
	// MaxTokens caps each reply; 0 is the model adapter's default.
	MaxTokens int
}

// Agent is a model with a system prompt, tools and subagents, that runs
// over threads. Make one with CreateStreamTextAgent.
type Agent struct {
	rt    *Runtime
	opts  AgentOptions
	tools map[string]lifecycle.Tool
	subs  map[string]*Agent
	specs []model.ToolSpec
}

// Name returns the agent's name.
func (a *Agent) Name() string { return a.opts.Name }

// Agent returns the agent of that name made by CreateStreamTextAgent.
func (rt *Runtime) Agent(name string) (*Agent, bool) {
	a := rt.agents.agent(name)
	return a, a != nil
}

// subagentSchema is the input of a subagent called as a tool.
var subagentSchema = json.RawMessage(`{"type":"object","properties":{"prompt":{"type":"string","description":"What to ask the agent, with all the context it needs."}},"required":["prompt"]}`)

// CreateStreamTextAgent makes an agent and registers it under its name, for
// Send and for workers resuming its runs. Tool and subagent names must be
// unique within the agent.
func (rt *Runtime) CreateStreamTextAgent(opts AgentOptions) (*Agent, error) {
	if opts.Name == "" {
		return nil, errors.New("runtime: an agent needs a Name")
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	a := &Agent{rt: rt, opts: opts, tools: map[string]lifecycle.Tool{}, subs: map[string]*Agent{}}
	taken := func(name string) error {
		if name == "" {
			return fmt.Errorf("runtime: agent %s: a tool without a name", opts.Name)
		}
		if _, ok := a.tools[name]; ok {
			return fmt.Errorf("runtime: agent %s: two tools named %s", opts.Name, name)
		}
		if _, ok := a.subs[name]; ok {
			return fmt.Errorf("runtime: agent %s: two tools named %s", opts.Name, name)
		}
		return nil
	}
	for _, t := range opts.Tools {
		if err := taken(t.Name); err != nil {
			return nil, err
		}
		if t.Handler == nil {
			return nil, fmt.Errorf("runtime: agent %s: tool %s has no handler", opts.Name, t.Name)
		}
		a.tools[t.Name] = t
		a.specs = append(a.specs, t.Spec())
	}
	for _, s := range opts.Subagents {
		if s == nil || s.rt != rt {
			return nil, fmt.Errorf("runtime: agent %s: a subagent must be made by the same runtime", opts.Name)
		}
		if err := taken(s.opts.Name); err != nil {
			return nil, err
		}
		desc := s.opts.Description
		if desc == "" {
			desc = "Ask the " + s.opts.Name + " agent. It replies with its answer."
		}
		a.subs[s.opts.Name] = s
		a.specs = append(a.specs, model.ToolSpec{Name: s.opts.Name, Description: desc, InputSchema: subagentSchema})
	}
	core := rt.agents
	core.mu.Lock()
	defer core.mu.Unlock()
	if _, ok := core.agents[opts.Name]; ok {
		return nil, fmt.Errorf("runtime: an agent named %s exists already", opts.Name)
	}
	core.agents[opts.Name] = a
	return a, nil
}

// agentCore is the runtime's part that runs agents.
type agentCore struct {
	storage storage.Storage
	bus     bus.Bus
	queue   queue.Queue
	resolve func(name string) (model.Model, error)
	pricer  pricing.Pricer

	mu     sync.Mutex
	agents map[string]*Agent
	active map[string]*activeRun // runs this runtime executes (or is about to)
}

func newAgentCore(opts Options) *agentCore {
	c := &agentCore{
		storage: opts.Storage, bus: opts.Bus, queue: opts.Queue,
		resolve: opts.ResolveModel, pricer: opts.Pricer,
		agents: map[string]*Agent{}, active: map[string]*activeRun{},
	}
	if c.storage == nil {
		c.storage = memstorage.New(memstorage.Options{Now: opts.Config.Now})
	}
	if c.bus == nil {
		c.bus = membus.New()
	}
	if c.queue == nil {
		c.queue = memqueue.New(memqueue.Options{})
	}
	return c
}

// Storage returns the runtime's storage.
func (rt *Runtime) Storage() storage.Storage { return rt.agents.storage }

// activeRun is a run this runtime executes: Stop reaches it here.
type activeRun struct {
	mu      sync.Mutex
	cancel  context.CancelCauseFunc
	stopped bool
	done    chan struct{}
}

func (a *activeRun) stop() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.stopped = true
	if a.cancel != nil {
		a.cancel(errStopRequested)
	}
}

func (a *activeRun) setCancel(cancel context.CancelCauseFunc) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cancel = cancel
	if a.stopped {
		cancel(errStopRequested)
	}
}

// claim reserves runID for this runtime; nil if it is taken already.
func (c *agentCore) claim(runID string) *activeRun {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.active[runID]; ok {
		return nil
	}
	a := &activeRun{done: make(chan struct{})}
	c.active[runID] = a
	return a
}

func (c *agentCore) lookup(runID string) *activeRun {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.active[runID]
}

func (c *agentCore) release(runID string, a *activeRun) {
	c.mu.Lock()
	if c.active[runID] == a {
		delete(c.active, runID)
	}
	c.mu.Unlock()
	close(a.done)
}

func (c *agentCore) agent(name string) *Agent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.agents[name]
}

// ErrThreadParked: a message for a thread whose run is parked.
var ErrThreadParked = errors.New("runtime: the thread has a parked run waiting for approvals (Respond or Stop it first)")

// Notes the runtime gives the model for calls that never ran.
const (
	stoppedResult = "The run was stopped before this tool call ran."
	failedResult  = "The run failed before this tool call ran."
)

// Send appends a user message to the thread (made if new) and runs the
// agent over it: it takes the thread's run lock (waiting for a run on it
// to end), then loops — model call, tool calls, results, model call — up
// to MaxSteps, in the background. It returns once the message is stored.
//
// The run lives on after Send returns; ending ctx stops it, as Stop does.
// A call that needs approval parks the run (RunHandle.Wait says which
// calls; Respond answers them). A thread whose run is parked takes no new
// message: ErrThreadParked.
func (a *Agent) Send(ctx context.Context, threadID, text string) (*RunHandle, error) {
	rt, core := a.rt, a.rt.agents
	if core.resolve == nil {
		return nil, errors.New("runtime: Options.ResolveModel is needed to run agents")
	}
	if _, err := core.storage.EnsureThread(ctx, threadID); err != nil {
		return nil, err
	}
	run, rctx, err := rt.sb.BeginRun(ctx, threadID, lifecycle.BeginRunOptions{Wait: true})
	if err != nil {
		return nil, err
	}
	active := core.claim(run.RunID)
	fail := func(err error) (*RunHandle, error) {
		core.release(run.RunID, active)
		return nil, errors.Join(err, run.End(context.WithoutCancel(ctx), lifecycle.RunFinished))
	}
	if err := rt.settleThread(ctx, threadID); err != nil {
		return fail(err)
	}
	if err := core.storage.CreateRun(ctx, storage.Run{ID: run.RunID, ThreadID: threadID, Agent: a.opts.Name, State: string(lifecycle.RunRunning)}); err != nil {
		return fail(err)
	}
	if _, err := core.storage.AppendMessages(ctx, threadID, []storage.Message{{RunID: run.RunID, Message: model.UserText(text)}}); err != nil {
		_, _ = core.storage.UpdateRun(context.WithoutCancel(ctx), run.RunID, func(r *storage.Run) error {
			r.State, r.Error = string(lifecycle.RunFailed), err.Error()
			return nil
		})
		return fail(err)
	}
	h := newRunHandle(run.RunID, threadID)
	x := &execution{rt: rt, core: core, lock: run, top: a, runID: run.RunID, threadID: threadID, handle: h, data: &runData{Frames: map[string]*frame{}}}
	go x.execute(rctx, active)
	return h, nil
}

// settleThread, under the thread's run lock, refuses a thread whose run is
// parked and closes out what earlier runs left open: a run still marked
// running has lost its worker (the lock was free), and a failed run's open
// step can no longer be retried once a new message follows.
func (rt *Runtime) settleThread(ctx context.Context, threadID string) error {
	core := rt.agents
	runs, err := core.storage.ListRuns(ctx, threadID)
	if err != nil {
		return err
	}
	for _, r := range runs {
		switch lifecycle.RunState(r.State) {
		case lifecycle.RunParked:
			return fmt.Errorf("%w: run %s", ErrThreadParked, r.ID)
		case lifecycle.RunRunning, lifecycle.RunFailed:
			if core.lookup(r.ID) != nil || (lifecycle.RunState(r.State) == lifecycle.RunFailed && len(r.Data) == 0) {
				continue
			}
			if err := rt.closeOutRun(ctx, r, failedResult); err != nil {
				return err
			}
		}
	}
	return nil
}

// closeOutRun marks an ended run that still says running failed and takes
// its saved state, then appends what that state left open to the thread. A
// run whose state changed meanwhile (a Retry) is left alone.
func (rt *Runtime) closeOutRun(ctx context.Context, r storage.Run, why string) error {
	core := rt.agents
	var saved json.RawMessage
	_, err := core.storage.UpdateRun(ctx, r.ID, func(s *storage.Run) error {
		switch lifecycle.RunState(s.State) {
		case lifecycle.RunRunning:
			s.State, s.Error = string(lifecycle.RunFailed), "abandoned: its worker stopped before it ended"
		case lifecycle.RunFailed:
		default:
			return errSkip
		}
		saved, s.Data = s.Data, nil
		return nil
	})
	if errors.Is(err, errSkip) {
		return nil
	}
	if err != nil {
		return err
	}
	data, err := decodeRunData(saved)
	if err != nil {
		return nil // nothing we can read is left open
	}
	if msgs := data.closeOut(why); msgs != nil {
		return appendThread(ctx, core.storage, r.ThreadID, r.ID, msgs...)
	}
	return nil
}

// errSkip aborts an UpdateRun that found nothing to do.
var errSkip = errors.New("runtime: nothing to do")

func appendThread(ctx context.Context, s storage.Storage, threadID, runID string, msgs ...model.Message) error {
	rows := make([]storage.Message, len(msgs))
	for i, m := range msgs {
		rows[i] = storage.Message{RunID: runID, Message: m}
	}
	_, err := s.AppendMessages(ctx, threadID, rows)
	return err
}

// RunResult is where a run (or the part of it a RunHandle watches) ended
// up.
type RunResult struct {
	RunID    string
	ThreadID string
	State    lifecycle.RunState
	// Text is a finished run's final reply.
	Text string
	// StopReason is a finished run's: end_turn, max_tokens, max_steps.
	StopReason string
	// Pending are the calls a parked run waits on.
	Pending []PendingApproval
	// Error says why a failed run failed.
	Error string
}

// RunHandle watches a run started by Send, on the runtime that runs it,
// until it parks or ends.
type RunHandle struct {
	RunID    string
	ThreadID string

	events *eventQueue
	done   chan struct{}
	result RunResult
}

func newRunHandle(runID, threadID string) *RunHandle {
	return &RunHandle{RunID: runID, ThreadID: threadID, events: newEventQueue(), done: make(chan struct{})}
}

// Events returns the run's events from its start until it parks or ends
// (the channel then closes). Nothing is dropped: events wait for the
// reader, who must read to the end once it has called Events.
func (h *RunHandle) Events() <-chan Event { return h.events.channel() }

// Wait waits until the run parks or ends, and returns where it ended up;
// the error is ctx's, or the failure of a failed run.
func (h *RunHandle) Wait(ctx context.Context) (RunResult, error) {
	select {
	case <-h.done:
	case <-ctx.Done():
		return RunResult{}, ctx.Err()
	}
	if h.result.State == lifecycle.RunFailed {
		return h.result, fmt.Errorf("runtime: run %s failed: %s", h.RunID, h.result.Error)
	}
	return h.result, nil
}

func (h *RunHandle) finish(res RunResult) {
	h.result = res
	h.events.close()
	close(h.done)
}
