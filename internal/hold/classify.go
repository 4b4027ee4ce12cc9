package hold

import (
	"bytes"
	"strings"
	"time"

	"github.com/valyala/fastjson"

	"github.com/todo-shell/todo-shell/internal/plan"
)

// What a line may hold, told from its bytes before any of it is parsed. A
// quoted key or value with its quotes ("type":"user") can only be the
// record's own structure: inside a JSON string the quotes would be
// escaped.
type class uint8

const (
	// classPlan: a plan tool's call or result: the parser reads it.
	classPlan class = 1 << iota
	// classUser: maybe the person's prompt, or their interrupt.
	classUser
	// classWhole: a plan call that carries the whole list (TodoWrite,
	// update_plan, write_todos): the plan before it is not needed.
	classWhole
)

var (
	claudeTools = [][]byte{[]byte("TodoWrite"), []byte("TaskCreate"), []byte("TaskUpdate")}
	wholeTools  = [][]byte{[]byte("TodoWrite"), []byte(`"update_plan"`), []byte("write_todos"), []byte("todowrite")}
	taskTools   = [][]byte{[]byte("TaskCreate"), []byte("TaskUpdate")}

	typeAssistant = []byte(`"type":"assistant"`)
	typeUser      = []byte(`"type":"user"`)
	toolResult    = []byte(`"tool_result"`)
	responseItem  = []byte(`"type":"response_item"`)
	eventMsg      = []byte(`"type":"event_msg"`)
	userMessage   = []byte(`"type":"user_message"`)
	turnAborted   = []byte(`"type":"turn_aborted"`)
	callOutput    = []byte(`function_call_output`)
	updatePlan    = []byte(`"update_plan"`)
	writeTodos    = []byte(`write_todos`)
	funcResponse  = []byte(`functionResponse`)
)

func containsAny(b []byte, subs [][]byte) bool {
	for _, s := range subs {
		if bytes.Contains(b, s) {
			return true
		}
	}
	return false
}

// classify tells what line l of a transcript of format f may hold;
// waiting is set while a plan call waits for its result.
func classify(f plan.Format, l line, waiting bool) class {
	h := head(l.bytes)
	switch f {
	case plan.FormatClaudeTranscript:
		switch {
		case bytes.Contains(h, typeAssistant):
			if !l.long && containsAny(l.bytes, claudeTools) {
				return classPlan | wholeIf(l.bytes)
			}
		case bytes.Contains(h, typeUser):
			var c class
			if waiting && !l.long {
				c = classPlan
			}
			if !bytes.Contains(h, toolResult) {
				c |= classUser
			}
			return c
		}
		return 0
	case plan.FormatCodexRollout:
		switch {
		case bytes.Contains(h, responseItem):
			if !l.long && (bytes.Contains(l.bytes, updatePlan) || waiting && bytes.Contains(h, callOutput)) {
				return classPlan | wholeIf(l.bytes)
			}
		case bytes.Contains(h, eventMsg):
			if bytes.Contains(h, userMessage) || bytes.Contains(h, turnAborted) {
				return classUser
			}
		}
		return 0
	case plan.FormatGeminiSession:
		var c class
		if !l.long && bytes.Contains(l.bytes, writeTodos) {
			c = classPlan | classWhole
		}
		if bytes.Contains(h, typeUser) && !bytes.Contains(h, funcResponse) {
			c |= classUser
		}
		return c
	case plan.FormatUnknown:
		// Not known yet: the parser reads everything until it knows.
		c := classUser
		if !l.long {
			c |= classPlan | wholeIf(l.bytes)
		}
		return c
	}
	// todo-shell's own files and opencode's export: every line.
	if l.long {
		return 0
	}
	return classPlan | classWhole
}

// generic is classify for a line of a transcript whose format is not known
// (read backwards, from the end): what any of the formats may hold.
func generic(l line) class {
	h := head(l.bytes)
	var c class
	if !l.long && (containsAny(l.bytes, wholeTools) || containsAny(l.bytes, taskTools) || bytes.Contains(h, []byte(`"todos"`))) {
		c = classPlan | wholeIf(l.bytes)
	}
	if bytes.Contains(h, typeUser) && !bytes.Contains(h, toolResult) && !bytes.Contains(h, funcResponse) ||
		bytes.Contains(h, eventMsg) && (bytes.Contains(h, userMessage) || bytes.Contains(h, turnAborted)) {
		c |= classUser
	}
	return c
}

// wholeIf is classWhole when b is a call of a tool that sends the whole
// list (and not of a Task tool, which changes one task).
func wholeIf(b []byte) class {
	if containsAny(b, wholeTools) && !containsAny(b, taskTools) {
		return classWhole
	}
	return 0
}

// userKind is what a user record turned out to be.
type userKind uint8

const (
	userOther userKind = iota
	userPrompt
	userInterrupt
)

// interruptText starts the record Claude Code writes when the person stops
// the agent ("[Request interrupted by user]", "… for tool use]").
const interruptText = "[Request interrupted by user"

// readUser parses a classUser line: the person's prompt (with its id and
// time), their interrupt, or neither. sidechains reads a sub-agent's
// records as its own transcript's.
func readUser(p *fastjson.Parser, b []byte, sidechains bool) (userKind, string, time.Time) {
	v, err := p.ParseBytes(b)
	if err != nil || v.Type() != fastjson.TypeObject {
		return userOther, "", time.Time{}
	}
	when := func(key string) time.Time {
		t, _ := time.Parse(time.RFC3339Nano, string(v.GetStringBytes(key)))
		return t
	}
	switch string(v.GetStringBytes("type")) {
	case "user":
		if v.Exists("message") { // Claude Code
			if v.GetBool("isMeta") || v.GetBool("isCompactSummary") || v.GetBool("isSidechain") && !sidechains {
				return userOther, "", time.Time{}
			}
			text, ok := claudeText(v.Get("message", "content"))
			if !ok {
				return userOther, "", time.Time{}
			}
			if strings.HasPrefix(strings.TrimSpace(text), interruptText) {
				return userInterrupt, "", when("timestamp")
			}
			id := string(v.GetStringBytes("promptId"))
			if id == "" {
				id = string(v.GetStringBytes("uuid"))
			}
			return userPrompt, id, when("timestamp")
		}
		if v.Exists("content") && v.Exists("id") { // Gemini CLI
			for _, part := range v.GetArray("content") {
				if part.Exists("functionResponse") {
					return userOther, "", time.Time{}
				}
			}
			return userPrompt, string(v.GetStringBytes("id")), when("timestamp")
		}
	case "event_msg": // Codex
		switch string(v.GetStringBytes("payload", "type")) {
		case "user_message":
			return userPrompt, "", when("timestamp")
		case "turn_aborted":
			return userInterrupt, "", when("timestamp")
		}
	}
	return userOther, "", time.Time{}
}

// claudeText is the text of a Claude Code user message's content (a
// string, or text blocks); ok is false for content holding a tool result
// or nothing to read.
func claudeText(c *fastjson.Value) (string, bool) {
	if c == nil {
		return "", false
	}
	if c.Type() == fastjson.TypeString {
		return string(c.GetStringBytes()), true
	}
	var b strings.Builder
	for _, block := range c.GetArray() {
		switch string(block.GetStringBytes("type")) {
		case "tool_result":
			return "", false
		case "text":
			b.Write(block.GetStringBytes("text"))
		}
	}
	return b.String(), b.Len() > 0 || len(c.GetArray()) > 0
}
