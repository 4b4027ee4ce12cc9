package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

// Registry holds tool definitions with their handlers, in registration
// order, and executes them by name. It is safe for concurrent use.
type Registry struct {
	mu    sync.RWMutex
	order []string
	tools map[string]registered
}

type registered struct {
	def     Definition
	handler Handler
	shell   Shell      // nil: the generic shell form
	summary Summarizer // nil: Name(input)
	typing  ShellCompleter
}

// Tool is a tool as one value: its definition and its handler. A Tool may
// also implement Shell to give its results their own shell form.
type Tool interface {
	Definition() Definition
	Call(ctx context.Context, input json.RawMessage) (Result, error)
}

// NewRegistry returns an empty Registry.
func NewRegistry() *Registry {
	return &Registry{tools: make(map[string]registered)}
}

// Register adds a tool. A duplicate or empty name, or a nil handler, is an
// error and changes nothing.
func (r *Registry) Register(def Definition, h Handler) error {
	return r.register(def, h, nil, nil, nil)
}

// Add adds t, as Register does; when t implements Shell, shells show its
// results in that form.
func (r *Registry) Add(t Tool) error {
	sh, _ := t.(Shell)
	sum, _ := t.(Summarizer)
	typ, _ := t.(ShellCompleter)
	return r.register(t.Definition(), t.Call, sh, sum, typ)
}

func (r *Registry) register(def Definition, h Handler, sh Shell, sum Summarizer, typ ShellCompleter) error {
	if def.Name == "" {
		return fmt.Errorf("register tool: empty name")
	}
	if h == nil {
		return fmt.Errorf("register tool %q: nil handler", def.Name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.tools[def.Name]; dup {
		return fmt.Errorf("register tool %q: already registered", def.Name)
	}
	r.tools[def.Name] = registered{def: def, handler: h, shell: sh, summary: sum, typing: typ}
	r.order = append(r.order, def.Name)
	return nil
}

// Lookup returns the definition registered under name.
func (r *Registry) Lookup(name string) (Definition, bool) {
	r.mu.RLock()
	t, ok := r.tools[name]
	r.mu.RUnlock()
	return t.def, ok
}

// ShellOf returns the shell form of the tool called name, or nil when it
// has none of its own (or there is no such tool).
func (r *Registry) ShellOf(name string) Shell {
	r.mu.RLock()
	t := r.tools[name]
	r.mu.RUnlock()
	return t.shell
}

// CompleterOf returns what helps a person type a call of the tool called
// name, or nil when it has nothing of its own.
func (r *Registry) CompleterOf(name string) ShellCompleter {
	r.mu.RLock()
	t := r.tools[name]
	r.mu.RUnlock()
	return t.typing
}

// Summary is a call of the tool called name with input in one line, for a
// person: the tool's own (Summarizer), or Name(input). It is not
// neutralised for a terminal.
func (r *Registry) Summary(name string, input json.RawMessage) string {
	r.mu.RLock()
	t := r.tools[name]
	r.mu.RUnlock()
	if t.summary != nil {
		return t.summary.CallSummary(input)
	}
	return name + "(" + OneLine(string(input)) + ")"
}

// Has reports whether a tool named name is registered.
func (r *Registry) Has(name string) bool {
	_, ok := r.Lookup(name)
	return ok
}

// Definitions returns every definition in registration order.
func (r *Registry) Definitions() []Definition {
	r.mu.RLock()
	defer r.mu.RUnlock()
	defs := make([]Definition, len(r.order))
	for i, name := range r.order {
		defs[i] = r.tools[name].def
	}
	return defs
}

// Execute runs the tool called name with input and returns its tool_result,
// whose tool_use_id is always toolUseID. An unknown name, a handler error and
// a handler panic all become is_error results; Execute never panics.
func (r *Registry) Execute(ctx context.Context, toolUseID, name string, input json.RawMessage) ToolResult {
	res := ToolResult{Type: "tool_result", ToolUseID: toolUseID}
	r.mu.RLock()
	t, ok := r.tools[name]
	r.mu.RUnlock()
	if !ok {
		res.Content = fmt.Sprintf("Tool '%s' not found", name)
		res.IsError = true
		return res
	}
	out, err := call(WithToolUseID(ctx, toolUseID), t.handler, input)
	if err != nil {
		res.Content = fmt.Sprintf("Tool '%s' failed: %v", name, err)
		res.IsError = true
		return res
	}
	res.Content, res.IsError = out.Content, out.IsError
	res.Offloaded, res.OffloadErr, res.Meta = out.Offloaded, out.OffloadErr, out.Meta
	return res
}

// call runs h, turning a panic into an error.
func call(ctx context.Context, h Handler, input json.RawMessage) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return h(ctx, input)
}
