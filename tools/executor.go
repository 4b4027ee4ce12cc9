package tools

import (
	"context"
	"encoding/json"
)

// Offloader is the size policy an Executor applies to every result:
// offload.Policy is the standard one (results of 1000 characters or more go
// to a file and are replaced by a pointer to it).
type Offloader interface {
	// Offload returns res with a content too long to pass on whole moved
	// to a file named after res.ToolUseID and replaced by a pointer to it
	// (Offloaded describes the file). When no file can be written the
	// content stays whole and OffloadErr says why. A result already
	// offloaded, or with OffloadErr set, comes back as it is.
	Offload(res ToolResult) ToolResult
}

// Executor runs tool calls: a Registry and the offload policy in one, so a
// front end (the shell, serve, the MCP server, an agent loop) cannot run a
// tool without the size bound. Tools that stream their output (Bash) are
// given the same policy when they are made, and apply it as they go. It is
// safe for concurrent use.
type Executor struct {
	registry  *Registry
	offloader Offloader
	redactor  *Redactor
}

// NewExecutor returns an executor over reg applying off to every result;
// off nil passes results on whole (offloading off).
func NewExecutor(reg *Registry, off Offloader) *Executor {
	return &Executor{registry: reg, offloader: off}
}

// Redacting returns an executor like e that masks r's secrets in every
// result's content before the policy writes any of it to a file (a tool
// that streams, Bash, is given r too, for what it streams and spools).
func (e *Executor) Redacting(r *Redactor) *Executor {
	c := *e
	c.redactor = r
	return &c
}

// Registry returns the registry the executor runs.
func (e *Executor) Registry() *Registry { return e.registry }

// Offloader returns the offload policy the executor applies (nil: off).
func (e *Executor) Offloader() Offloader { return e.offloader }

// Definitions returns every tool's definition in registration order.
func (e *Executor) Definitions() []Definition { return e.registry.Definitions() }

// Lookup returns the definition registered under name.
func (e *Executor) Lookup(name string) (Definition, bool) { return e.registry.Lookup(name) }

// Has reports whether a tool named name is registered.
func (e *Executor) Has(name string) bool { return e.registry.Has(name) }

// Execute runs the tool called name with input, as Registry.Execute does,
// and applies the offload policy to its result, the secrets of its
// redactor (Redacting) masked first.
func (e *Executor) Execute(ctx context.Context, toolUseID, name string, input json.RawMessage) ToolResult {
	res := e.registry.Execute(ctx, toolUseID, name, input)
	if e.redactor != nil {
		res.Content = e.redactor.String(res.Content)
	}
	return e.offload(res)
}

func (e *Executor) offload(res ToolResult) ToolResult {
	if e.offloader == nil {
		return res
	}
	return e.offloader.Offload(res)
}

// ShellCall is one call made from a shell line: the tool_use sent (nil when
// the line never became a call), its result (as the tool gave it: the
// policy is applied to the shell form, what a person sees) and its shell
// form.
type ShellCall struct {
	Use    *ToolUse
	Result *ToolResult
	Form   ShellForm
}

// ShellInput turns args, the words typed after the tool's name in a shell,
// into the input of the tool called name: by the tool's own Shell, or the
// generic way (one JSON argument). When they cannot be, it returns the form
// to show instead (NoCall set) and no call should be made.
func (e *Executor) ShellInput(name string, args []string) (json.RawMessage, *ShellForm) {
	var (
		input json.RawMessage
		bad   *ShellForm
	)
	if sh := e.registry.ShellOf(name); sh != nil {
		input, bad = sh.ShellInput(args)
	} else {
		input, bad = ShellInput(name, args)
	}
	if bad != nil {
		bad.NoCall = true
	}
	return input, bad
}

// ExecuteShell runs the tool called name with input, made from args by
// ShellInput (a shell's plain command lines go to Bash with args nil), and
// returns the call with its shell form: the tool's own (Shell) or
// GenericForm. The offload policy applies to the form's stdout, so a long
// list goes to the file as a person reads it; a result the tool offloaded
// itself keeps its file.
func (e *Executor) ExecuteShell(ctx context.Context, toolUseID, name string, input json.RawMessage, args []string) ShellCall {
	use := &ToolUse{Type: "tool_use", ID: toolUseID, Name: name, Input: input}
	res := e.registry.Execute(ctx, toolUseID, name, input)
	var form ShellForm
	if sh := e.registry.ShellOf(name); sh != nil {
		form = sh.ShellForm(args, res)
	} else {
		form = GenericForm(res)
	}
	call := ShellCall{Use: use, Result: &res, Form: form}
	if form.NoCall {
		call.Use, call.Result = nil, nil
		return call
	}
	if form.Offloaded != nil || form.OffloadErr != nil || form.Stdout == "" {
		return call
	}
	shown := e.offload(ToolResult{Type: "tool_result", ToolUseID: toolUseID, Content: form.Stdout})
	call.Form.OffloadErr = shown.OffloadErr
	if shown.Offloaded != nil {
		if form.Whole {
			call.Form.Full = form.Stdout
		}
		call.Form.Stdout, call.Form.Offloaded = shown.Content, shown.Offloaded
	}
	return call
}
