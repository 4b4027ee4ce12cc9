// Package mcpserver serves a tools.Registry over the Model Context Protocol,
// so that any MCP client (Claude Code, Claude Desktop, Cursor, gemini-cli,
// codex) can call todo-shell's tools. It is a second front end over the same
// registry: the tool names, descriptions and input schemas are the registry's
// own definitions, and each result's text is exactly the Anthropic
// tool_result content the registry produced.
package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/todo-shell/todo-shell/tools"
)

// Options configure a server.
type Options struct {
	// Executor runs the calls, under the offload policy of the shell and
	// serve.
	Executor *tools.Executor
	// Tools names the registry's tools to publish, in order; empty
	// publishes every tool.
	Tools []string
	// Version is reported to clients in the initialize response.
	Version string
	// Logger receives the SDK's log; nil discards it.
	Logger *slog.Logger
	// NewID returns the tool_use id a call runs under (it names the
	// offload file); nil uses tools.NewToolUseID.
	NewID tools.IDGenerator
	// Stop, when closed, interrupts every call still running and every
	// call that arrives after it (the client has gone).
	Stop <-chan struct{}
	// OnResult, when set, is called after every call with its result.
	OnResult func(name string, res tools.ToolResult)
}

// New returns an MCP server publishing the chosen tools of o.Executor.
// Naming a tool the registry does not hold is an error.
func New(o Options) (*mcp.Server, error) {
	if o.Executor == nil {
		return nil, fmt.Errorf("mcp server: no executor")
	}
	if o.NewID == nil {
		o.NewID = tools.NewToolUseID
	}
	version := o.Version
	if version == "" {
		version = "(devel)"
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "todo-shell", Version: version}, &mcp.ServerOptions{Logger: o.Logger})
	defs := o.Executor.Definitions()
	if len(o.Tools) > 0 {
		chosen := make([]tools.Definition, 0, len(o.Tools))
		for _, name := range o.Tools {
			def, ok := o.Executor.Lookup(name)
			if !ok {
				return nil, fmt.Errorf("mcp server: no tool named %q", name)
			}
			chosen = append(chosen, def)
		}
		defs = chosen
	}
	for _, def := range defs {
		srv.AddTool(Tool(def), handler(o, def.Name))
	}
	return srv, nil
}

// Tool returns def as an MCP tool: the same name, description and input
// schema bytes.
func Tool(def tools.Definition) *mcp.Tool {
	return &mcp.Tool{Name: def.Name, Description: def.Description, InputSchema: def.InputSchema}
}

// handler runs one tools/call through the executor. A rejected input is a
// result with isError set, never a protocol error: the client reads the same
// message a model would.
func handler(o Options, name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		input := json.RawMessage(req.Params.Arguments)
		if len(input) == 0 || string(input) == "null" {
			input = json.RawMessage(`{}`)
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		if o.Stop != nil {
			go func() {
				select {
				case <-o.Stop:
					cancel()
				case <-ctx.Done():
				}
			}()
		}
		res := o.Executor.Execute(ctx, o.NewID(), name, input)
		if o.OnResult != nil {
			o.OnResult(name, res)
		}
		return &mcp.CallToolResult{
			Content: []mcp.Content{&mcp.TextContent{Text: res.Content}},
			IsError: res.IsError,
		}, nil
	}
}
