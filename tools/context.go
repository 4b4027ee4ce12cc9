package tools

import (
	"context"
	"io"
)

type toolUseIDKey struct{}
type outputKey struct{}

// WithToolUseID returns a context carrying the tool_use_id of the call being
// executed. Registry.Execute sets it for every handler.
func WithToolUseID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, toolUseIDKey{}, id)
}

// ToolUseIDFrom returns the tool_use_id of the call being executed, or "".
func ToolUseIDFrom(ctx context.Context) string {
	id, _ := ctx.Value(toolUseIDKey{}).(string)
	return id
}

// WithOutput returns a context whose handlers stream live output to w as
// they produce it (Bash does), so a front end can show it while the call runs.
func WithOutput(ctx context.Context, w io.Writer) context.Context {
	return context.WithValue(ctx, outputKey{}, w)
}

// OutputFrom returns the live output writer of ctx, or nil.
func OutputFrom(ctx context.Context) io.Writer {
	w, _ := ctx.Value(outputKey{}).(io.Writer)
	return w
}
