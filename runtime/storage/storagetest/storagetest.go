// Package storagetest is the conformance suite of [storage.Storage]: every
// adapter's test runs it.
//
//	func TestConformance(t *testing.T) {
//		storagetest.Run(t, func(t *testing.T) storage.Storage { return memstorage.New(memstorage.Options{}) })
//	}
package storagetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/storage"
)

// NewStore returns a fresh, empty store for one subtest. A second call in
// the same subtest must return another store on the same backend (another
// connection to the same file), as another worker would open; adapters
// that cannot share a backend return the first store again.
type NewStore func(t *testing.T) storage.Storage

// Run runs the suite. Each subtest calls newStore (and closes what it
// returns itself).
func Run(t *testing.T, newStore NewStore) {
	for _, c := range []struct {
		name string
		fn   func(t *testing.T, open func() storage.Storage)
	}{
		{"Threads", testThreads},
		{"MessagesKeepOrder", testMessagesKeepOrder},
		{"MessagesRoundTrip", testMessagesRoundTrip},
		{"AppendNeedsThread", testAppendNeedsThread},
		{"ConcurrentAppends", testConcurrentAppends},
		{"Runs", testRuns},
		{"UpdateRunIsAtomic", testUpdateRunIsAtomic},
		{"UpdateRunAbort", testUpdateRunAbort},
		{"Usage", testUsage},
		{"DeleteThread", testDeleteThread},
		{"SharedBackend", testSharedBackend},
		{"Closed", testClosed},
		{"CanceledContext", testCanceledContext},
	} {
		t.Run(c.name, func(t *testing.T) {
			var first storage.Storage
			open := func() storage.Storage {
				s := newStore(t)
				if first == nil {
					first = s
				}
				return s
			}
			c.fn(t, open)
		})
	}
}

func must(t *testing.T, err error, what string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func ctx(t *testing.T) context.Context { return t.Context() }

func testThreads(t *testing.T, open func() storage.Storage) {
	s := open()
	_, err := s.GetThread(ctx(t), "t1")
	if !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("GetThread of a missing thread: got %v, want ErrNotFound", err)
	}
	a, err := s.EnsureThread(ctx(t), "t1")
	must(t, err, "EnsureThread")
	if a.ID != "t1" || a.CreatedAt.IsZero() {
		t.Fatalf("EnsureThread = %+v, want id t1 and a creation time", a)
	}
	b, err := s.EnsureThread(ctx(t), "t1")
	must(t, err, "EnsureThread again")
	if !b.CreatedAt.Equal(a.CreatedAt) {
		t.Errorf("a second EnsureThread made a new thread: created %v, then %v", a.CreatedAt, b.CreatedAt)
	}
	got, err := s.GetThread(ctx(t), "t1")
	must(t, err, "GetThread")
	if got.ID != "t1" || !got.CreatedAt.Equal(a.CreatedAt) {
		t.Errorf("GetThread = %+v, want %+v", got, a)
	}
	msgs, err := s.Messages(ctx(t), "t1")
	must(t, err, "Messages of an empty thread")
	if len(msgs) != 0 {
		t.Errorf("a new thread has %d messages", len(msgs))
	}
	if _, err := s.Messages(ctx(t), "missing"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("Messages of a missing thread: got %v, want ErrNotFound", err)
	}
}

func text(role model.Role, s string) storage.Message {
	return storage.Message{Message: model.Message{Role: role, Parts: []model.Part{{Text: s}}}}
}

func testMessagesKeepOrder(t *testing.T, open func() storage.Storage) {
	s := open()
	_, err := s.EnsureThread(ctx(t), "t1")
	must(t, err, "EnsureThread")
	_, err = s.EnsureThread(ctx(t), "t2")
	must(t, err, "EnsureThread")
	for i := range 5 {
		out, err := s.AppendMessages(ctx(t), "t1", []storage.Message{text(model.RoleUser, fmt.Sprint("a", i)), text(model.RoleAssistant, fmt.Sprint("b", i))})
		must(t, err, "AppendMessages")
		if len(out) != 2 || out[0].Seq != int64(2*i+1) || out[1].Seq != int64(2*i+2) {
			t.Fatalf("append %d gave seqs %v, want %d and %d", i, seqs(out), 2*i+1, 2*i+2)
		}
		_, err = s.AppendMessages(ctx(t), "t2", []storage.Message{text(model.RoleUser, "other")})
		must(t, err, "AppendMessages to t2")
	}
	msgs, err := s.Messages(ctx(t), "t1")
	must(t, err, "Messages")
	if len(msgs) != 10 {
		t.Fatalf("got %d messages, want 10", len(msgs))
	}
	for i, m := range msgs {
		want := fmt.Sprint("a", i/2)
		if i%2 == 1 {
			want = fmt.Sprint("b", i/2)
		}
		if m.Seq != int64(i+1) || m.Text() != want || m.ThreadID != "t1" || m.CreatedAt.IsZero() {
			t.Errorf("message %d = seq %d %q thread %q, want seq %d %q thread t1", i, m.Seq, m.Text(), m.ThreadID, i+1, want)
		}
	}
}

func seqs(ms []storage.Message) []int64 {
	var out []int64
	for _, m := range ms {
		out = append(out, m.Seq)
	}
	return out
}

func testMessagesRoundTrip(t *testing.T, open func() storage.Storage) {
	s := open()
	_, err := s.EnsureThread(ctx(t), "t1")
	must(t, err, "EnsureThread")
	in := []storage.Message{
		{RunID: "run-1", Message: model.UserText("héllo \x00 ✓")},
		{RunID: "run-1", Message: model.Message{Role: model.RoleAssistant, Parts: []model.Part{
			{Text: "let me look"},
			{ToolCall: &model.ToolCall{ID: "call_1", Name: "bash", Input: json.RawMessage(`{"command":"ls -la","n":[1,2]}`)}},
		}}},
		{RunID: "run-1", Message: model.Message{Role: model.RoleTool, Parts: []model.Part{
			{ToolResult: &model.ToolResult{ToolCallID: "call_1", Name: "bash", Content: "denied", IsError: true}},
		}}},
	}
	_, err = s.AppendMessages(ctx(t), "t1", in)
	must(t, err, "AppendMessages")
	got, err := s.Messages(ctx(t), "t1")
	must(t, err, "Messages")
	if len(got) != len(in) {
		t.Fatalf("got %d messages, want %d", len(got), len(in))
	}
	for i := range in {
		a, _ := json.Marshal(in[i].Message)
		b, _ := json.Marshal(got[i].Message)
		if string(a) != string(b) || got[i].RunID != "run-1" {
			t.Errorf("message %d:\n got %s (run %q)\nwant %s (run run-1)", i, b, got[i].RunID, a)
		}
	}
	// The caller's copy is its own.
	got[1].Parts[1].ToolCall.Name = "changed"
	again, err := s.Messages(ctx(t), "t1")
	must(t, err, "Messages")
	if again[1].Parts[1].ToolCall.Name != "bash" {
		t.Error("changing a returned message changed the store")
	}
}

func testAppendNeedsThread(t *testing.T, open func() storage.Storage) {
	s := open()
	_, err := s.AppendMessages(ctx(t), "missing", []storage.Message{text(model.RoleUser, "x")})
	if !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("AppendMessages to a missing thread: got %v, want ErrNotFound", err)
	}
	err = s.CreateRun(ctx(t), storage.Run{ID: "r", ThreadID: "missing"})
	if !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("CreateRun in a missing thread: got %v, want ErrNotFound", err)
	}
	_, err = s.EnsureThread(ctx(t), "t1")
	must(t, err, "EnsureThread")
	bad := storage.Message{Message: model.Message{Role: model.RoleAssistant, Parts: []model.Part{
		{Text: "fine"},
		{ToolCall: &model.ToolCall{ID: "c", Name: "x", Input: json.RawMessage(`{not json`)}},
	}}}
	if _, err := s.AppendMessages(ctx(t), "t1", []storage.Message{text(model.RoleUser, "first"), bad}); err == nil {
		t.Error("AppendMessages took a message with invalid JSON input")
	}
	msgs, err := s.Messages(ctx(t), "t1")
	must(t, err, "Messages")
	if len(msgs) != 0 {
		t.Errorf("a failed AppendMessages left %d messages: it must append all or none", len(msgs))
	}
}

func testConcurrentAppends(t *testing.T, open func() storage.Storage) {
	a, b := open(), open()
	_, err := a.EnsureThread(ctx(t), "t1")
	must(t, err, "EnsureThread")
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			_, err := s.AppendMessages(ctx(t), "t1", []storage.Message{text(model.RoleUser, fmt.Sprint(i)), text(model.RoleAssistant, fmt.Sprint(i))})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		must(t, err, "concurrent AppendMessages")
	}
	msgs, err := a.Messages(ctx(t), "t1")
	must(t, err, "Messages")
	if len(msgs) != 80 {
		t.Fatalf("got %d messages, want 80", len(msgs))
	}
	for i := 0; i < len(msgs); i += 2 {
		if msgs[i].Seq != int64(i+1) || msgs[i+1].Seq != int64(i+2) || msgs[i].Text() != msgs[i+1].Text() {
			t.Fatalf("messages %d and %d are %d:%q and %d:%q: one append's messages must stay together, seqs dense",
				i, i+1, msgs[i].Seq, msgs[i].Text(), msgs[i+1].Seq, msgs[i+1].Text())
		}
	}
}

func testRuns(t *testing.T, open func() storage.Storage) {
	s := open()
	_, err := s.EnsureThread(ctx(t), "t1")
	must(t, err, "EnsureThread")
	_, err = s.EnsureThread(ctx(t), "t2")
	must(t, err, "EnsureThread")
	if _, err := s.GetRun(ctx(t), "run-1"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("GetRun of a missing run: got %v, want ErrNotFound", err)
	}
	must(t, s.CreateRun(ctx(t), storage.Run{ID: "run-1", ThreadID: "t1", Agent: "helper", State: "running"}), "CreateRun")
	if err := s.CreateRun(ctx(t), storage.Run{ID: "run-1", ThreadID: "t1"}); !errors.Is(err, storage.ErrExists) {
		t.Errorf("CreateRun of a taken id: got %v, want ErrExists", err)
	}
	time.Sleep(2 * time.Millisecond)
	must(t, s.CreateRun(ctx(t), storage.Run{ID: "run-2", ThreadID: "t1", State: "running"}), "CreateRun")
	must(t, s.CreateRun(ctx(t), storage.Run{ID: "run-3", ThreadID: "t2", State: "running"}), "CreateRun")

	r, err := s.GetRun(ctx(t), "run-1")
	must(t, err, "GetRun")
	if r.ThreadID != "t1" || r.Agent != "helper" || r.State != "running" || r.CreatedAt.IsZero() || r.UpdatedAt.IsZero() {
		t.Errorf("GetRun = %+v", r)
	}
	data := json.RawMessage(`{"frames":{"":{"step":2}},"pending":[{"toolCallId":"c1"}]}`)
	up, err := s.UpdateRun(ctx(t), "run-1", func(r *storage.Run) error {
		r.State, r.Data, r.StopRequested, r.Error = "parked", data, true, "why"
		r.ThreadID, r.ID = "changed", "changed" // ignored
		return nil
	})
	must(t, err, "UpdateRun")
	if up.ID != "run-1" || up.ThreadID != "t1" || up.State != "parked" {
		t.Errorf("UpdateRun returned %+v", up)
	}
	r, err = s.GetRun(ctx(t), "run-1")
	must(t, err, "GetRun")
	if r.State != "parked" || !r.StopRequested || r.Error != "why" || !jsonEqual(r.Data, data) || r.ThreadID != "t1" {
		t.Errorf("after UpdateRun, GetRun = %+v (data %s)", r, r.Data)
	}
	if _, err := s.UpdateRun(ctx(t), "missing", func(*storage.Run) error { return nil }); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("UpdateRun of a missing run: got %v, want ErrNotFound", err)
	}
	up, err = s.UpdateRun(ctx(t), "run-1", func(r *storage.Run) error { r.Data = nil; return nil })
	must(t, err, "UpdateRun clearing data")
	if len(up.Data) != 0 {
		t.Errorf("cleared data came back as %s", up.Data)
	}

	runs, err := s.ListRuns(ctx(t), "t1")
	must(t, err, "ListRuns")
	if len(runs) != 2 || runs[0].ID != "run-1" || runs[1].ID != "run-2" {
		t.Errorf("ListRuns(t1) = %v, want run-1, run-2", runIDs(runs))
	}
	runs, err = s.ListRuns(ctx(t), "none")
	must(t, err, "ListRuns of a thread without runs")
	if len(runs) != 0 {
		t.Errorf("ListRuns of a thread without runs = %v", runIDs(runs))
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

func runIDs(rs []storage.Run) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func testUpdateRunIsAtomic(t *testing.T, open func() storage.Storage) {
	a, b := open(), open()
	_, err := a.EnsureThread(ctx(t), "t1")
	must(t, err, "EnsureThread")
	must(t, a.CreateRun(ctx(t), storage.Run{ID: "run-1", ThreadID: "t1", Data: json.RawMessage(`0`)}), "CreateRun")
	var wg sync.WaitGroup
	errs := make(chan error, 30)
	for i := range 30 {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			_, err := s.UpdateRun(ctx(t), "run-1", func(r *storage.Run) error {
				var n int
				if err := json.Unmarshal(r.Data, &n); err != nil {
					return err
				}
				r.Data = json.RawMessage(fmt.Sprint(n + 1))
				return nil
			})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		must(t, err, "concurrent UpdateRun")
	}
	r, err := a.GetRun(ctx(t), "run-1")
	must(t, err, "GetRun")
	if string(r.Data) != "30" {
		t.Errorf("30 concurrent increments gave %s: UpdateRun must be atomic", r.Data)
	}
}

func testUpdateRunAbort(t *testing.T, open func() storage.Storage) {
	s := open()
	_, err := s.EnsureThread(ctx(t), "t1")
	must(t, err, "EnsureThread")
	must(t, s.CreateRun(ctx(t), storage.Run{ID: "run-1", ThreadID: "t1", State: "parked"}), "CreateRun")
	mine := errors.New("not parked any more")
	_, err = s.UpdateRun(ctx(t), "run-1", func(r *storage.Run) error {
		r.State = "running"
		return mine
	})
	if !errors.Is(err, mine) {
		t.Errorf("UpdateRun returned %v, want fn's own error", err)
	}
	r, err := s.GetRun(ctx(t), "run-1")
	must(t, err, "GetRun")
	if r.State != "parked" {
		t.Errorf("an aborted UpdateRun wrote state %q", r.State)
	}
}

func testUsage(t *testing.T, open func() storage.Storage) {
	s := open()
	rows := []storage.UsageRow{
		{RunID: "run-1", ThreadID: "t1", Agent: "a", Kind: storage.KindModel, Model: "claude", ModelID: "claude-x-1", InputTokens: 100, OutputTokens: 20, Seconds: 1.5},
		{RunID: "run-1", ThreadID: "t1", Agent: "a", Kind: storage.KindTool, Model: "tool:bash", ModelID: "e2b", ToolCallID: "call_1", Seconds: 2.25},
	}
	must(t, s.AddUsage(ctx(t), rows), "AddUsage")
	must(t, s.AddUsage(ctx(t), []storage.UsageRow{{RunID: "run-2", ThreadID: "t1", Kind: storage.KindTool, Model: "tool:x"}}), "AddUsage")
	must(t, s.AddUsage(ctx(t), []storage.UsageRow{{RunID: "run-3", ThreadID: "t2", Kind: storage.KindTool, Model: "tool:y"}}), "AddUsage")
	got, err := s.Usage(ctx(t), storage.UsageFilter{RunID: "run-1"})
	must(t, err, "Usage")
	if len(got) != 2 {
		t.Fatalf("Usage(run-1) has %d rows, want 2", len(got))
	}
	for i, g := range got {
		w := rows[i]
		if g.ID == 0 || g.CreatedAt.IsZero() {
			t.Errorf("row %d has no ID or creation time: %+v", i, g)
		}
		w.ID, w.CreatedAt = g.ID, g.CreatedAt
		if g != w {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
	if got[0].ID >= got[1].ID {
		t.Errorf("row IDs %d, %d do not increase", got[0].ID, got[1].ID)
	}
	got, err = s.Usage(ctx(t), storage.UsageFilter{ThreadID: "t1"})
	must(t, err, "Usage by thread")
	if len(got) != 3 {
		t.Errorf("Usage(thread t1) has %d rows, want 3", len(got))
	}
	if _, err := s.Usage(ctx(t), storage.UsageFilter{}); err == nil {
		t.Error("Usage with an empty filter: want an error")
	}
}

func testDeleteThread(t *testing.T, open func() storage.Storage) {
	s := open()
	for _, id := range []string{"t1", "t2"} {
		_, err := s.EnsureThread(ctx(t), id)
		must(t, err, "EnsureThread")
		_, err = s.AppendMessages(ctx(t), id, []storage.Message{text(model.RoleUser, "x")})
		must(t, err, "AppendMessages")
		must(t, s.CreateRun(ctx(t), storage.Run{ID: "run-" + id, ThreadID: id}), "CreateRun")
		must(t, s.AddUsage(ctx(t), []storage.UsageRow{{RunID: "run-" + id, ThreadID: id, Kind: storage.KindTool}}), "AddUsage")
	}
	must(t, s.DeleteThread(ctx(t), "t1"), "DeleteThread")
	must(t, s.DeleteThread(ctx(t), "t1"), "DeleteThread of a missing thread")
	if _, err := s.GetThread(ctx(t), "t1"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("GetThread after delete: %v", err)
	}
	if _, err := s.GetRun(ctx(t), "run-t1"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("GetRun of a deleted thread's run: %v", err)
	}
	if rows, _ := s.Usage(ctx(t), storage.UsageFilter{RunID: "run-t1"}); len(rows) != 0 {
		t.Errorf("a deleted thread's usage rows remain: %v", rows)
	}
	_, err := s.EnsureThread(ctx(t), "t1")
	must(t, err, "EnsureThread again")
	msgs, err := s.Messages(ctx(t), "t1")
	must(t, err, "Messages")
	if len(msgs) != 0 {
		t.Errorf("a re-made thread has the deleted one's %d messages", len(msgs))
	}
	msgs, err = s.Messages(ctx(t), "t2")
	must(t, err, "Messages of the other thread")
	if len(msgs) != 1 {
		t.Errorf("deleting t1 touched t2: %d messages", len(msgs))
	}
	if _, err := s.GetRun(ctx(t), "run-t2"); err != nil {
		t.Errorf("deleting t1 touched t2's run: %v", err)
	}
}

func testSharedBackend(t *testing.T, open func() storage.Storage) {
	a, b := open(), open()
	_, err := a.EnsureThread(ctx(t), "t1")
	must(t, err, "EnsureThread")
	_, err = a.AppendMessages(ctx(t), "t1", []storage.Message{text(model.RoleUser, "from a")})
	must(t, err, "AppendMessages")
	must(t, a.CreateRun(ctx(t), storage.Run{ID: "run-1", ThreadID: "t1", State: "parked"}), "CreateRun")
	msgs, err := b.Messages(ctx(t), "t1")
	must(t, err, "Messages through the second store")
	if len(msgs) != 1 || msgs[0].Text() != "from a" {
		t.Errorf("the second store sees %d messages", len(msgs))
	}
	r, err := b.GetRun(ctx(t), "run-1")
	must(t, err, "GetRun through the second store")
	if r.State != "parked" {
		t.Errorf("the second store sees state %q", r.State)
	}
}

func testClosed(t *testing.T, open func() storage.Storage) {
	s := open()
	must(t, s.Close(), "Close")
	must(t, s.Close(), "a second Close")
	if _, err := s.EnsureThread(ctx(t), "t1"); !errors.Is(err, storage.ErrClosed) {
		t.Errorf("EnsureThread after Close: got %v, want ErrClosed", err)
	}
	if _, err := s.GetRun(ctx(t), "r"); !errors.Is(err, storage.ErrClosed) {
		t.Errorf("GetRun after Close: got %v, want ErrClosed", err)
	}
}

func testCanceledContext(t *testing.T, open func() storage.Storage) {
	s := open()
	c, cancel := context.WithCancel(ctx(t))
	cancel()
	if _, err := s.EnsureThread(c, "t1"); !errors.Is(err, context.Canceled) {
		t.Errorf("EnsureThread with a canceled ctx: got %v, want context.Canceled", err)
	}
	if _, err := s.Messages(c, "t1"); !errors.Is(err, context.Canceled) {
		t.Errorf("Messages with a canceled ctx: got %v, want context.Canceled", err)
	}
}
