// Package runtime is the agent loop: agents (a model, a system prompt,
// tools, subagents), runs of an agent over a thread's new message, the
// approvals that park a run until a person answers, the live events of a
// run, usage rows and their prices, and the worker that resumes runs. It
// runs on the sandbox lifecycle of package lifecycle — one sandbox per
// thread, the tools and their calls — which a Runtime embeds: Runtime's
// SandboxFor, CallTool, BuiltinTools and BeginRun are the lifecycle's.
package runtime
