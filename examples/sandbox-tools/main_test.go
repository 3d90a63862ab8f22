package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/providers/wasm"
)

// testProvider is wasm when its images are here (tests never fetch them),
// else local; $AGENTENKIT_TEST_PROVIDER overrides.
func testProvider(t *testing.T) string {
	if p := os.Getenv("AGENTENKIT_TEST_PROVIDER"); p != "" {
		return p
	}
	dir := images.DefaultDir()
	if _, err := images.Find(dir); err == nil {
		if fi, err := os.Stat(filepath.Join(dir, wasm.BusyboxFile)); err == nil && fi.Size() > 0 {
			return "wasm"
		}
	}
	t.Logf("the wasm images are not in %s; testing on the local provider", dir)
	return "local"
}

// isolate gives the test its own state and no model keys.
func isolate(t *testing.T) {
	t.Setenv("AGENTENKIT_STATE_DIR", t.TempDir())
	for _, k := range []string{"ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_KEY", "ANTHROPIC_MODEL", "OPENAI_MODEL"} {
		t.Setenv(k, "")
	}
}

func runDemo(t *testing.T, o options, answers string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out, errOut bytes.Buffer
	err := run(ctx, o, strings.NewReader(answers), &out, &errOut)
	t.Logf("stdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
	return out.String(), errOut.String(), err
}

func TestScriptedDemo(t *testing.T) {
	isolate(t)
	out, errOut, err := runDemo(t, options{provider: testProvider(t), thread: "demo"}, "y\ny\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "model: scripted") {
		t.Errorf("stderr does not say the model is scripted: %q", errOut)
	}
	for _, want := range []string{
		"? text_editor wants to create primes.py",  // asked
		"? bash wants to run:",                     // asked
		"2 3 5 7 11 13 17 19 23 29 31 37 41 43 47", // bash's live output
		"15 primes, sum 328",                       // code_execution's
		"their sum is 328",                         // the final reply
		"Usage of this run:",
		"tool:bash", "tool:code_execution", "tool:text_editor",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	if strings.Contains(out, "? code_execution") {
		t.Error("code_execution asked for approval; its default is to run")
	}
	// The usage table: 4 model rows, 3 tool rows, a total with a cost.
	if n := strings.Count(out, "\nmodel  "); n != 4 {
		t.Errorf("%d model rows, want 4", n)
	}
	if !strings.Contains(out, "\ntotal ") || !strings.Contains(out, "$0.000000") {
		t.Error("no total with a cost")
	}
}

func TestScriptedDemoDenied(t *testing.T) {
	isolate(t)
	out, _, err := runDemo(t, options{provider: testProvider(t), thread: "denied"}, "y\nnot now, use ls\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "The user denied this tool call; it did not run. Their message: not now, use ls") {
		t.Error("the denial with its message did not reach the model's result")
	}
	if !strings.Contains(out, "You denied the bash call") || strings.Contains(out, "15 primes") {
		t.Error("the demo went on past the denial")
	}
}

// TestNoTerminalSaysSo: without a terminal and without -yes the demo says at
// start that calls are denied when no answer comes, and how to approve; the
// denial itself says it too.
func TestNoTerminalSaysSo(t *testing.T) {
	isolate(t)
	out, errOut, err := runDemo(t, options{provider: testProvider(t), thread: "noterm"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "standard input is not a terminal") || !strings.Contains(errOut, "-yes") {
		t.Errorf("stderr does not say approvals are denied without a terminal and how to approve: %q", errOut)
	}
	if !strings.Contains(out, "(no answer: denied; -yes approves every call)") {
		t.Error("the denial does not say how to approve")
	}
	_, errOut, err = runDemo(t, options{provider: testProvider(t), thread: "noterm-yes", yes: true}, "")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(errOut, "not a terminal") {
		t.Error("-yes still warns that calls are denied")
	}
}

// TestOpenAICompatible runs the app against a fake OpenAI-compatible
// server (OPENAI_BASE_URL): a bash call, then a reply; priced per token.
func TestOpenAICompatible(t *testing.T) {
	isolate(t)
	var mu sync.Mutex
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-test" {
			http.Error(w, `{"error":{"message":"bad request","type":"invalid_request_error"}}`, 400)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Model string `json:"model"`
			Tools []struct {
				Function struct{ Name string } `json:"function"`
			} `json:"tools"`
		}
		_ = json.Unmarshal(body, &req)
		if req.Model != "gpt-4o-mini" || len(req.Tools) != 3 {
			http.Error(w, `{"error":{"message":"want gpt-4o-mini with 3 tools","type":"invalid_request_error"}}`, 400)
			return
		}
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(v string) { fmt.Fprintf(w, "data: %s\n\n", v) }
		if n == 1 {
			chunk(`{"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"role":"assistant","content":"Checking."}}]}`)
			chunk(`{"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"bash","arguments":"{\"command\":\"echo from-the-sandbox\"}"}}]}}]}`)
			chunk(`{"model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
		} else {
			chunk(`{"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"All done."}}]}`)
			chunk(`{"model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
		}
		chunk(`{"model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":1000000,"completion_tokens":1000000}}`)
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	t.Setenv("OPENAI_API_KEY", "sk-test")

	out, errOut, err := runDemo(t, options{provider: testProvider(t), thread: "oa", yes: true, prompt: "say hi"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "model: gpt-4o-mini at "+srv.URL) {
		t.Errorf("stderr does not name the model: %q", errOut)
	}
	for _, want := range []string{"approved (-yes)", "from-the-sandbox", "All done.", "gpt-4o-mini"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	// Two calls of a million tokens in and out at $0.15 and $0.60 per
	// million: $1.50.
	if !strings.Contains(out, "$1.500000") {
		t.Error("the total is not $1.50")
	}
}
