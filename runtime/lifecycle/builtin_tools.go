package lifecycle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/tools"
)

// The built-in tools' names. The text editor also answers to the names of
// Claude's own versions of it, tools.StrReplaceBasedEditTool and
// tools.StrReplaceEditor.
const (
	ToolBash          = "bash"
	ToolCodeExecution = "code_execution"
	ToolTextEditor    = tools.TextEditorName
)

// BuiltinToolResultCapChars is how many characters of text a built-in
// tool's result keeps unless BuiltinToolOptions.ResultCapChars says
// otherwise: past it the result keeps its start and its end, with the cut
// marked in the middle ("... [N characters cut] ...").
const BuiltinToolResultCapChars = tools.DefaultResultCapChars

// BuiltinToolOptions tune BuiltinTools. The zero value gives the defaults.
type BuiltinToolOptions struct {
	Bash          BashOptions
	CodeExecution CodeExecutionOptions
	TextEditor    TextEditorOptions
	// ResultCapChars caps each result's text; 0 means
	// BuiltinToolResultCapChars, negative no cap.
	ResultCapChars int
}

// BashOptions tune the bash tool.
type BashOptions struct {
	// Timeout per command; default tools.DefaultBashTimeout (120 s).
	Timeout time.Duration
	// Approval; default AskAlways.
	Approval ApprovalPolicy
	// MaxUses caps the calls per run; 0 means no cap.
	MaxUses int
}

// CodeExecutionOptions tune the code_execution tool.
type CodeExecutionOptions struct {
	// Timeout per run; default tools.DefaultCodeTimeout (60 s).
	Timeout time.Duration
	// Approval; default AskNever.
	Approval ApprovalPolicy
	// MaxUses caps the calls per run; 0 means no cap.
	MaxUses int
}

// TextEditorOptions tune the text editor.
type TextEditorOptions struct {
	// Approval; default TextEditorApproval (ask for every command but
	// view).
	Approval ApprovalPolicy
	// MaxUses caps the calls per run; 0 means no cap.
	MaxUses int
	// MaxCharacters clips a file view; default
	// tools.DefaultMaxCharacters (16 000).
	MaxCharacters int
	// NoOverwrite makes create refuse an existing file, as the reference
	// does, instead of replacing it (keeping the old text for undo_edit).
	NoOverwrite bool
}

// TextEditorApproval is the text editor's default approval policy: a
// person approves every call that may change a file (create, str_replace,
// insert, undo_edit) but not view. An input it cannot read asks.
func TextEditorApproval(_ context.Context, input json.RawMessage) (bool, error) {
	in, err := tools.ParseEditorInput(input)
	if err != nil {
		return true, nil
	}
	return in.Command != tools.CmdView, nil
}

// BuiltinTools returns the built-in tools of names, in that order: "bash",
// "code_execution", "text_editor" (or its aliases
// "str_replace_based_edit_tool" and "str_replace_editor"); no names means
// the three. Each works on the thread's (or run's) sandbox: a fresh
// sandbox's lost or restored note goes into the result, live output goes
// out as tool.output events, and AfterSandboxCall runs after the call
// (CallTool). The tools keep their own files in StateDir.
//
// bash and the editor named "str_replace_based_edit_tool" (or
// "str_replace_editor") declare Claude's built-in types (Tool.NativeType:
// bash_20250124, text_editor_20250728, text_editor_20250124), so that the
// Anthropic adapter sends them as the tools Claude was trained on; to any
// other model they are JSON-schema functions. "text_editor" and
// "code_execution" are JSON-schema functions everywhere (Anthropic's
// code_execution is a server tool that would not run in the sandbox).
func (m *Manager) BuiltinTools(names []string, opts BuiltinToolOptions) ([]Tool, error) {
	if len(names) == 0 {
		names = []string{ToolBash, ToolCodeExecution, ToolTextEditor}
	}
	capChars := opts.ResultCapChars
	if capChars == 0 {
		capChars = BuiltinToolResultCapChars
	}
	seen := map[string]bool{}
	var out []Tool
	for _, name := range names {
		if seen[name] {
			return nil, fmt.Errorf("runtime: built-in tool %s named twice", name)
		}
		seen[name] = true
		switch name {
		case ToolBash:
			out = append(out, m.bashTool(opts.Bash, capChars))
		case ToolCodeExecution:
			out = append(out, m.codeTool(opts.CodeExecution, capChars))
		case tools.TextEditorName, tools.StrReplaceBasedEditTool, tools.StrReplaceEditor:
			out = append(out, m.editorTool(name, opts.TextEditor, capChars))
		default:
			return nil, fmt.Errorf("runtime: no built-in tool %q (bash, code_execution, text_editor, %s, %s)", name, tools.StrReplaceBasedEditTool, tools.StrReplaceEditor)
		}
	}
	return out, nil
}

func (m *Manager) bashTool(o BashOptions, capChars int) Tool {
	bash := tools.Bash{Timeout: o.Timeout, CapChars: capChars}
	return Tool{
		Name:         ToolBash,
		Description:  bashDescription,
		InputSchema:  json.RawMessage(bashSchema),
		OutputSchema: json.RawMessage(tools.BashOutputSchema),
		NativeType:   tools.NativeBash,
		Approval:     policyOr(o.Approval, AskAlways),
		Handler: func(ctx context.Context, input json.RawMessage) (any, error) {
			if err := m.takeUse(ctx, ToolBash, o.MaxUses); err != nil {
				return nil, err
			}
			in, err := tools.ParseBashInput(input)
			if err != nil {
				return nil, err
			}
			var res tools.BashResult
			err = m.withToolEnv(ctx, func(ctx context.Context, env tools.Env) (err error) {
				res, err = bash.Run(ctx, env, in)
				return err
			})
			return res, err
		},
	}
}

func (m *Manager) codeTool(o CodeExecutionOptions, capChars int) Tool {
	code := tools.CodeExecution{Timeout: o.Timeout, CapChars: capChars}
	return Tool{
		Name:         ToolCodeExecution,
		Description:  codeDescription,
		InputSchema:  json.RawMessage(codeSchema),
		OutputSchema: json.RawMessage(tools.CodeOutputSchema),
		Approval:     policyOr(o.Approval, AskNever),
		Handler: func(ctx context.Context, input json.RawMessage) (any, error) {
			if err := m.takeUse(ctx, ToolCodeExecution, o.MaxUses); err != nil {
				return nil, err
			}
			in, err := tools.ParseCodeInput(input)
			if err != nil {
				return nil, err
			}
			var res tools.CodeResult
			err = m.withToolEnv(ctx, func(ctx context.Context, env tools.Env) (err error) {
				res, err = code.Run(ctx, env, in)
				return err
			})
			return res, err
		},
	}
}

func (m *Manager) editorTool(name string, o TextEditorOptions, capChars int) Tool {
	editor := tools.TextEditor{Name: name, MaxCharacters: o.MaxCharacters, NoOverwrite: o.NoOverwrite, CapChars: capChars}
	return Tool{
		Name:         name,
		Description:  editorDescription,
		InputSchema:  json.RawMessage(editorSchema),
		OutputSchema: json.RawMessage(tools.EditorOutputSchema),
		NativeType:   tools.NativeType(name),
		Approval:     policyOr(o.Approval, TextEditorApproval),
		Handler: func(ctx context.Context, input json.RawMessage) (any, error) {
			if err := m.takeUse(ctx, name, o.MaxUses); err != nil {
				return nil, err
			}
			in, err := tools.ParseEditorInput(input)
			if err != nil {
				return nil, err
			}
			var res tools.EditorResult
			err = m.withToolEnv(ctx, func(ctx context.Context, env tools.Env) (err error) {
				res, err = editor.Run(ctx, env, in)
				return err
			})
			return res, err
		},
	}
}

func policyOr(p, def ApprovalPolicy) ApprovalPolicy {
	if p != nil {
		return p
	}
	return def
}

// withToolEnv runs fn with the Env of ctx's sandbox (WithSandbox: once
// more on a fresh sandbox if it ended part way).
func (m *Manager) withToolEnv(ctx context.Context, fn func(ctx context.Context, env tools.Env) error) error {
	return m.withSandbox(ctx, func(sb ThreadSandbox) error {
		env := tools.Env{
			Sandbox:  sb.Sandbox,
			StateDir: m.cfg.SandboxStateDir, // relative: the tools resolve it in the work folder
			Note:     sb.Note,
			Emit:     func(stream, text string) { EmitToolOutput(ctx, stream, text) },
		}
		if path.IsAbs(env.StateDir) {
			dir, err := m.StateDir(ctx, sb.Sandbox)
			if err != nil {
				return err
			}
			env.StateDir = dir
		}
		return fn(ctx, env)
	})
}

// toolUsesTTL is how long a run's count of tool uses is kept: longer than
// a parked run is likely to wait for its approvals.
const toolUsesTTL = 30 * 24 * time.Hour

// toolUsesPrefix is the kv prefix of a thread's counts of tool uses:
// "tooluses/<thread>/<run>/<tool>".
func toolUsesPrefix(threadID string) string { return "tooluses/" + threadID + "/" }

// takeUse counts one call of tool in ctx's run (in its thread outside a
// run) and refuses it, with an error for the model, once max calls were
// made. max 0 means no cap. The count lives in the kv, so a run resumed on
// another worker keeps it.
func (m *Manager) takeUse(ctx context.Context, tool string, max int) error {
	if max <= 0 {
		return nil
	}
	key := toolUsesPrefix(ThreadID(ctx)) + RunID(ctx) + "/" + tool
	for {
		old, err := m.kv.Get(ctx, key)
		n := 0
		switch {
		case errors.Is(err, kv.ErrNotFound):
			old = nil
		case err != nil:
			return fmt.Errorf("runtime: count the uses of %s: %w", tool, err)
		default:
			n, _ = strconv.Atoi(string(old))
		}
		if n >= max {
			return &tools.Error{Text: fmt.Sprintf("The %s tool can be used at most %d times per run, and this run has used it %d times; this call did not run. Go on without it.", tool, max, n)}
		}
		ok, err := m.kv.CompareAndSwap(ctx, key, old, []byte(strconv.Itoa(n+1)), toolUsesTTL)
		if err != nil {
			return fmt.Errorf("runtime: count the uses of %s: %w", tool, err)
		}
		if ok {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}
