package tools

import (
	"context"
	"io"

	"github.com/todo-shell/todo-shell/tools/redact"
)

type toolUseIDKey struct{}
type outputKey struct{}
type redactorKey struct{}

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

type offloaderKey struct{}

// WithOffloader returns a context carrying the offload policy of the call
// being executed. Executor sets it for every handler, so a tool that streams
// output too large to hold (Bash) applies the same policy as it goes.
func WithOffloader(ctx context.Context, off Offloader) context.Context {
	return context.WithValue(ctx, offloaderKey{}, off)
}

// OffloaderFrom returns the offload policy of ctx, or nil.
func OffloaderFrom(ctx context.Context) Offloader {
	off, _ := ctx.Value(offloaderKey{}).(Offloader)
	return off
}

// WithRedactor returns a context whose handlers mask r's secrets in the
// output they stream or spool (Bash does), so that a secret never reaches
// a file or a screen; the agent masks the final results too.
func WithRedactor(ctx context.Context, r *redact.Redactor) context.Context {
	return context.WithValue(ctx, redactorKey{}, r)
}

// RedactorFrom returns the redactor of ctx, or nil (which masks nothing).
func RedactorFrom(ctx context.Context) *redact.Redactor {
	r, _ := ctx.Value(redactorKey{}).(*redact.Redactor)
	return r
}
