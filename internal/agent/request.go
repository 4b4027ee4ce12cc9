package agent

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

	"github.com/todo-shell/todo-shell/tools"
)

// Requests are built with the SDK's own types (anthropic.MessageNewParams):
// the conversation is a []anthropic.MessageParam, each response turned into
// its param by the SDK's ToParam, each tool result an
// anthropic.ToolResultBlockParam. The SDK encodes the whole conversation at
// every request; BenchmarkRoundOverhead measures what that costs (see
// docs/BENCHMARKS.md).
//
// Prompt caching (https://docs.claude.com/en/docs/build-with-claude/prompt-caching):
// the API caches the prefix of a request up to each block marked with
// cache_control, in the order tools, system, messages. A request carries up
// to four such breakpoints; this loop uses
//
//  1. the last tool definition (the tools never change within a session),
//  2. the system prompt (tools + system),
//  3. the last block of the previous request (read back from the cache
//     this round, whatever the number of blocks added since), and
//  4. the last block of this request (written, read next round): the
//     moving breakpoint.

// toolParams turns the registry's definitions into the SDK's tool params:
// the input schema's properties and required list in their fields, any
// other schema keyword (additionalProperties, $schema, …) as an extra field.
func toolParams(defs []tools.Definition) ([]anthropic.ToolUnionParam, error) {
	out := make([]anthropic.ToolUnionParam, 0, len(defs))
	for _, d := range defs {
		var schema map[string]json.RawMessage
		if err := json.Unmarshal(d.InputSchema, &schema); err != nil {
			return nil, fmt.Errorf("tool %s: input schema: %w", d.Name, err)
		}
		var in anthropic.ToolInputSchemaParam
		for k, v := range schema {
			switch k {
			case "type":
			case "properties":
				in.Properties = v
			case "required":
				if err := json.Unmarshal(v, &in.Required); err != nil {
					return nil, fmt.Errorf("tool %s: input schema: required: %w", d.Name, err)
				}
			default:
				if in.ExtraFields == nil {
					in.ExtraFields = map[string]any{}
				}
				in.ExtraFields[k] = v
			}
		}
		t := anthropic.ToolParam{Name: d.Name, InputSchema: in}
		if d.Description != "" {
			t.Description = anthropic.String(d.Description)
		}
		out = append(out, anthropic.ToolUnionParam{OfTool: &t})
	}
	return out, nil
}

// params is the request for the conversation so far, with its cache
// breakpoints. The stored conversation is not changed: the marked blocks
// are copies.
func (a *Agent) params() anthropic.MessageNewParams {
	n := len(a.messages)
	msgs := make([]anthropic.MessageParam, n)
	for i, m := range a.messages {
		msgs[i] = a.encoded(i, m)
	}
	if n > 0 {
		if p := a.cachedUpTo; p > 0 && p < n {
			msgs[p-1] = markLast(a.messages[p-1])
		}
		msgs[n-1] = markLast(a.messages[n-1])
		a.cachedUpTo = n
	}
	return anthropic.MessageNewParams{
		Model:     anthropic.Model(a.cfg.Model),
		MaxTokens: a.cfg.MaxTokens,
		System:    a.system,
		Tools:     a.tools,
		Messages:  msgs,
	}
}

// encoded returns message i as its JSON, encoded by the SDK the first time
// it is sent and reused by every later request (param.Override sends it as
// is): re-encoding the whole conversation at every round would cost time
// in proportion to its length, each round (BenchmarkRequestEncoding).
func (a *Agent) encoded(i int, m anthropic.MessageParam) anthropic.MessageParam {
	for len(a.raw) <= i {
		a.raw = append(a.raw, nil)
	}
	if a.raw[i] == nil {
		b, err := json.Marshal(m)
		if err != nil { // left to the SDK, which reports it with the request
			return m
		}
		a.raw[i] = b
	}
	return param.Override[anthropic.MessageParam](a.raw[i])
}

// ephemeral is the cache_control every breakpoint carries.
func ephemeral() anthropic.CacheControlEphemeralParam {
	return anthropic.NewCacheControlEphemeralParam()
}

// markLast returns m with a cache breakpoint on its last content block (a
// copy of it; m's blocks are shared with the stored conversation). A block
// of a kind that cannot carry one leaves m as it is.
func markLast(m anthropic.MessageParam) anthropic.MessageParam {
	if len(m.Content) == 0 {
		return m
	}
	last := m.Content[len(m.Content)-1]
	switch {
	case last.OfText != nil:
		b := *last.OfText
		b.CacheControl = ephemeral()
		last = anthropic.ContentBlockParamUnion{OfText: &b}
	case last.OfToolResult != nil:
		b := *last.OfToolResult
		b.CacheControl = ephemeral()
		last = anthropic.ContentBlockParamUnion{OfToolResult: &b}
	case last.OfToolUse != nil:
		b := *last.OfToolUse
		b.CacheControl = ephemeral()
		last = anthropic.ContentBlockParamUnion{OfToolUse: &b}
	default:
		return m
	}
	m.Content = append(append([]anthropic.ContentBlockParamUnion(nil), m.Content[:len(m.Content)-1]...), last)
	return m
}

// textBlock is a text content block.
func textBlock(text string) anthropic.ContentBlockParamUnion {
	return anthropic.NewTextBlock(text)
}

// userMessage is a user message holding blocks.
func userMessage(blocks []anthropic.ContentBlockParamUnion) anthropic.MessageParam {
	return anthropic.NewUserMessage(blocks...)
}

// resultBlock is a tool result as the API takes it: its text as one text
// block (none when empty: the API refuses an empty text block), is_error
// only when true.
func resultBlock(res tools.ToolResult) anthropic.ContentBlockParamUnion {
	b := anthropic.ToolResultBlockParam{ToolUseID: res.ToolUseID}
	if res.Content != "" {
		b.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: res.Content}}}
	}
	if res.IsError {
		b.IsError = anthropic.Bool(true)
	}
	return anthropic.ContentBlockParamUnion{OfToolResult: &b}
}

// responseParam is the assistant message that sends a response back. Text
// and tool_use blocks are built from the accumulated fields (the SDK's
// ToParam decodes a block again from its raw JSON, which stream leaves
// without the text); a tool_use input that is not valid JSON (a stream cut
// inside it) becomes {} so that the conversation stays valid; an empty text
// block, which the API refuses, is left out. Any other block goes through
// the SDK's ToParam.
func responseParam(msg anthropic.Message) anthropic.MessageParam {
	p := anthropic.MessageParam{Role: anthropic.MessageParamRoleAssistant}
	for i := range msg.Content {
		b := &msg.Content[i]
		switch {
		case b.Type == "text" && len(b.Citations) == 0:
			if b.Text != "" {
				p.Content = append(p.Content, anthropic.NewTextBlock(b.Text))
			}
		case b.Type == "tool_use":
			input := b.Input
			if !json.Valid(input) {
				input = json.RawMessage(`{}`)
			}
			p.Content = append(p.Content, anthropic.ContentBlockParamUnion{OfToolUse: &anthropic.ToolUseBlockParam{ID: b.ID, Name: b.Name, Input: input}})
		default:
			p.Content = append(p.Content, b.ToParam())
		}
	}
	if len(p.Content) == 0 { // an empty answer: the API wants some content
		p.Content = append(p.Content, anthropic.NewTextBlock("(no answer)"))
	}
	return p
}

// decodeMessage turns a message as recorded (JSON) back into its param. A
// message the SDK's types do not hold exactly (a field they do not model, a
// tool_result whose content is a string) is sent as recorded.
func decodeMessage(raw json.RawMessage) anthropic.MessageParam {
	var m anthropic.MessageParam
	if err := json.Unmarshal(raw, &m); err == nil && len(m.Content) > 0 {
		if again, err := json.Marshal(m); err == nil && sameJSON(raw, again) {
			return m
		}
	}
	return param.Override[anthropic.MessageParam](raw)
}

// sameJSON reports whether a and b hold the same JSON value.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
