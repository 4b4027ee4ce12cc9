// Package tools implements the Anthropic tool protocol for todo-shell: tool
// definitions with an input_schema, tool_use and tool_result blocks in the
// Messages API wire format, and a Registry that executes tools by name.
package tools

import (
	"context"
	"encoding/json"
	"unicode/utf8"
)

// Definition is a tool definition exactly as the Messages API "tools"
// parameter takes it, and what the tool declares about its effects.
type Definition struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	// ReadOnly declares that the tool changes nothing outside todo-shell's
	// own session state (no file, no command): an agent runs it without
	// asking for permission. Not part of the wire form.
	ReadOnly bool `json:"-"`
}

// ToolUse is a tool_use content block sent by the model.
type ToolUse struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// ToolResult is a tool_result content block. Content is always a string and
// is_error is present on the wire only when true.
type ToolResult struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content"`
	IsError   bool   `json:"is_error,omitempty"`

	// The fields below are for front ends and never on the wire.

	// Offloaded describes the file the full content went to when the
	// result was offloaded.
	Offloaded *Offloaded `json:"-"`
	// OffloadErr says why a result that should have been offloaded was
	// not; Content then holds the full text.
	OffloadErr error `json:"-"`
	// Meta is tool-specific detail for display (Bash: how it ended).
	Meta any `json:"-"`
}

// Offloaded describes a result whose full text was written to a file and
// replaced by a one-line pointer.
type Offloaded struct {
	Path    string // absolute path of the file holding the full text
	Preview string // the first lines of the full text
	Lines   int    // number of lines in the full text
	Bytes   int64  // size of the full text in bytes
}

// Result is what a Handler returns: the content and whether it is an error
// the caller should see as is_error.
type Result struct {
	Content string
	IsError bool

	// Offloaded is set by handlers that streamed their output to an
	// offload file themselves (Bash does), so the content is the pointer.
	Offloaded *Offloaded
	// OffloadErr says why such a handler could not offload; Content then
	// holds the full text.
	OffloadErr error
	// Meta is tool-specific detail for display.
	Meta any
}

// Handler executes one tool call. It must honour ctx cancellation. A
// returned Go error (or a panic) becomes an is_error tool_result; a bad input
// should be reported as a Result with IsError set. A handler must neither
// modify input nor keep it after returning: callers may pass a view of a
// buffer they reuse (copy what you keep).
type Handler func(ctx context.Context, input json.RawMessage) (Result, error)

// TextResult returns a successful Result holding s.
func TextResult(s string) Result { return Result{Content: s} }

// ErrorResult returns an is_error Result holding msg.
func ErrorResult(msg string) Result { return Result{Content: msg, IsError: true} }

// AppendJSONString appends s to dst as a JSON string literal. It escapes the
// same characters as encoding/json (without HTML escaping) and replaces
// invalid UTF-8 with U+FFFD, so its output decodes to what encoding/json would
// produce.
func AppendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < 0x80 {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' || (r >= 0x80 && r <= 0x9f) {
			// Line separators as encoding/json does; C1 controls too, so
			// that a result line shown on a terminal cannot carry a CSI
			// (U+009B) or an OSC (U+009D) to it.
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', hex[r>>12&0xF], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendJSONStrings appends list to dst as a JSON array of strings, each as
// AppendJSONString writes it; a nil list is the empty array [].
func AppendJSONStrings(dst []byte, list []string) []byte {
	dst = append(dst, '[')
	for i, s := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendJSONString(dst, s)
	}
	return append(dst, ']')
}

// MarshalJSON encodes the result with a hand-written encoder: it is on the
// hot path of the tool server.
func (r ToolResult) MarshalJSON() ([]byte, error) {
	return r.AppendJSON(make([]byte, 0, 64+len(r.Content)+len(r.ToolUseID))), nil
}

// AppendJSON appends the wire form of r to dst.
func (r ToolResult) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"type":"tool_result","tool_use_id":`...)
	dst = AppendJSONString(dst, r.ToolUseID)
	dst = append(dst, `,"content":`...)
	dst = AppendJSONString(dst, r.Content)
	if r.IsError {
		dst = append(dst, `,"is_error":true`...)
	}
	return append(dst, '}')
}
