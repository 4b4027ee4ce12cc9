package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/tools"
)

// InterruptedResult is the tool_result content given to a tool_use whose
// result a transcript lacks (the process ended in the middle of the turn).
const InterruptedResult = "Interrupted: the session ended before this tool returned"

// ReadTranscript rebuilds the conversation from a transcript an Agent wrote
// (transcript.jsonl): each "request" line's message as sent, each
// "response" as its assistant message. A line that cannot be read (cut off
// by a crash, or longer than readgate.MaxLine) is skipped and reported to
// warn with its line number. A turn cut off in the middle
// — a tool_use with no tool_result after it — gets interrupted results, so
// that the API accepts the history.
func ReadTranscript(r io.Reader, warn func(string)) ([]json.RawMessage, error) {
	if warn == nil {
		warn = func(string) {}
	}
	var msgs []json.RawMessage
	next := 1
	tooLong := func(n int) {
		warn(fmt.Sprintf("transcript line %d skipped: longer than %d MiB", n, readgate.MaxLine>>20))
	}
	skipped, err := readgate.ScanLines(r, readgate.MaxLine, func(n int, b []byte) error {
		for ; next < n; next++ {
			tooLong(next)
		}
		next = n + 1
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			return nil
		}
		var line struct {
			Type     string            `json:"type"`
			Message  json.RawMessage   `json:"message"`
			Messages []json.RawMessage `json:"messages"` // a "compact" line
		}
		err := json.Unmarshal(b, &line)
		if err == nil && line.Type == "compact" && len(line.Messages) > 0 {
			msgs = append(msgs[:0], line.Messages...) // the conversation starts over from it
			return nil
		}
		if err != nil || len(line.Message) == 0 {
			warn(fmt.Sprintf("transcript line %d skipped: cannot be read", n))
			return nil
		}
		switch line.Type {
		case "request":
			msgs = append(msgs, append(json.RawMessage(nil), line.Message...))
		case "response":
			m, err := assistantParam(line.Message)
			if err != nil {
				warn(fmt.Sprintf("transcript line %d skipped: %v", n, err))
				return nil
			}
			msgs = append(msgs, m)
		}
		return nil
	})
	for _, l := range skipped {
		if l.Line >= next {
			tooLong(l.Line)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("read transcript: %w", err)
	}
	return closeCutTurns(msgs), nil
}

// blockFields are the fields a content block of each type carries back to
// the API, as the loop sends it (a response logged whole also has fields
// that are not request parameters).
var blockFields = map[string][]string{
	"text":              {"type", "text", "citations"},
	"tool_use":          {"type", "id", "name", "input"},
	"thinking":          {"type", "thinking", "signature"},
	"redacted_thinking": {"type", "data"},
}

// assistantParam turns a logged response into the assistant message the
// loop sent back: its content blocks with their request fields.
func assistantParam(raw json.RawMessage) (json.RawMessage, error) {
	var m struct {
		Content []map[string]json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	blocks := make([]map[string]json.RawMessage, 0, len(m.Content))
	for _, b := range m.Content {
		var typ string
		_ = json.Unmarshal(b["type"], &typ) // no string type: an unknown block, handled below
		out := map[string]json.RawMessage{}
		if fields, ok := blockFields[typ]; ok {
			for _, f := range fields {
				if v, ok := b[f]; ok && !empty(v) {
					out[f] = v
				}
			}
		} else {
			for k, v := range b {
				if !empty(v) {
					out[k] = v
				}
			}
		}
		blocks = append(blocks, out)
	}
	return json.Marshal(struct {
		Role    string                       `json:"role"`
		Content []map[string]json.RawMessage `json:"content"`
	}{"assistant", blocks})
}

// empty reports whether a field's value is null, "" or [] (absent, for
// the API).
func empty(v json.RawMessage) bool {
	s := string(bytes.TrimSpace(v))
	return s == "null" || s == `""` || s == "[]"
}

// closeCutTurns gives every assistant tool_use that the next message does
// not answer an interrupted tool_result.
func closeCutTurns(msgs []json.RawMessage) []json.RawMessage {
	type block struct {
		Type      string `json:"type"`
		ID        string `json:"id"`
		ToolUseID string `json:"tool_use_id"`
	}
	type message struct {
		Role    string  `json:"role"`
		Content []block `json:"content"`
	}
	out := make([]json.RawMessage, 0, len(msgs)+1)
	for i, raw := range msgs {
		out = append(out, raw)
		var m message
		if json.Unmarshal(raw, &m) != nil || m.Role != "assistant" {
			continue
		}
		answered := map[string]bool{}
		if i+1 < len(msgs) {
			var next message
			if json.Unmarshal(msgs[i+1], &next) == nil && next.Role == "user" {
				for _, b := range next.Content {
					if b.Type == "tool_result" {
						answered[b.ToolUseID] = true
					}
				}
			}
		}
		var results [][]byte
		for _, b := range m.Content {
			if b.Type == "tool_use" && !answered[b.ID] {
				res := tools.ToolResult{Type: "tool_result", ToolUseID: b.ID, Content: InterruptedResult, IsError: true}
				results = append(results, res.AppendJSON(nil))
			}
		}
		if len(results) > 0 {
			if len(answered) > 0 && bytes.HasSuffix(msgs[i+1], []byte("]}")) {
				// Some answered: add the missing results to that message.
				next := msgs[i+1]
				// next ends with `]}`: insert before it.
				var joined []byte
				for _, r := range results {
					joined = append(append(joined, ','), r...)
				}
				fixed := append(append(append([]byte(nil), next[:len(next)-2]...), joined...), "]}"...)
				msgs[i+1] = fixed
				continue
			}
			out = append(out, rawUserMessage(results))
		}
	}
	return out
}

// Resume makes messages (from ReadTranscript) the conversation so far: the
// next Run continues it. They are already in the transcript, so they are
// not written to it again, and the first-prompt reminder is not repeated.
func (a *Agent) Resume(messages []json.RawMessage) {
	a.messages, a.raw = a.messages[:0], nil
	size := 0
	for _, m := range messages {
		a.messages = append(a.messages, decodeMessage(m))
		size += len(m)
	}
	// Until the first request says how full the window is, the
	// conversation's size is the estimate (4 bytes a token), so that a
	// resumed session's prompt shows its ctx at once.
	a.lastInput, a.added = int64(size/4), 0
	a.cachedUpTo = 0
	a.logged = len(a.messages)
	if len(messages) > 0 {
		a.prompted = true
	}
}

// rawUserMessage encodes a user message holding encoded blocks.
func rawUserMessage(blocks [][]byte) json.RawMessage {
	b := []byte(`{"role":"user","content":[`)
	for i, blk := range blocks {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, blk...)
	}
	return append(b, "]}"...)
}
