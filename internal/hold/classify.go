package hold

import (
	"bytes"
	"strings"
	"time"

	"github.com/todo-shell/todo-shell/internal/jsonscan"
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
	updatePlan  = []byte(`"update_plan"`)
	writeTodos  = []byte(`write_todos`)
	dollarSet   = []byte(`{"$set"`)
	todosKey    = []byte(`"todos":[`)
	typeKey     = []byte(`"type":"`)
	isMetaTrue  = []byte(`"isMeta":true`)
)

// The "type" values a record's own keys and its first blocks may have,
// as bits: what a line is, told without parsing it.
const (
	tAssistant uint16 = 1 << iota
	tUser
	tToolResult
	tResponseItem
	tEventMsg
	tUserMessage
	tTurnAborted
	tGemini
	tCallOutput
	tFunctionResponse
	tTaskStarted
)

var typeWords = map[string]uint16{
	"assistant":            tAssistant,
	"user":                 tUser,
	"tool_result":          tToolResult,
	"response_item":        tResponseItem,
	"event_msg":            tEventMsg,
	"user_message":         tUserMessage,
	"turn_aborted":         tTurnAborted,
	"gemini":               tGemini,
	"function_call_output": tCallOutput,
	"task_started":         tTaskStarted,
}

// typeHead and typeTail are how much of a line's start and end is
// searched for "type" values: a record's own keys come before its message
// (Claude Code 1.x, Codex, Gemini CLI, Claude Code's user records) or after
// it (Claude Code 2.x's assistant records and attachments); the first
// content block's type (tool_result) comes early.
const (
	typeHead = 2 << 10
	typeTail = 1 << 10
)

// types returns the "type" values found in the start and end of a line
// (one pass each).
func types(l line) uint16 {
	m := typesIn(l.bytes[:min(len(l.bytes), typeHead)])
	if !l.long && len(l.bytes) > typeHead {
		m |= typesIn(l.bytes[max(typeHead, len(l.bytes)-typeTail):])
	}
	if bytes.Contains(l.bytes[:min(len(l.bytes), typeHead)], []byte(`"functionResponse"`)) {
		m |= tFunctionResponse
	}
	return m
}

func typesIn(b []byte) uint16 {
	var m uint16
	for {
		i := bytes.Index(b, typeKey)
		if i < 0 {
			return m
		}
		b = b[i+len(typeKey):]
		j := bytes.IndexByte(b, '"')
		if j < 0 || j > 32 {
			continue
		}
		m |= typeWords[string(b[:j])]
		b = b[j+1:]
	}
}

func containsAny(b []byte, subs [][]byte) bool {
	for _, s := range subs {
		if bytes.Contains(b, s) {
			return true
		}
	}
	return false
}

// starts reports whether the line starts with sub (the first key of a
// Gemini CLI update, of a todos.jsonl record).
func starts(l line, sub []byte) bool {
	return bytes.Contains(l.bytes[:min(len(l.bytes), 64)], sub)
}

// classify tells what line l of a transcript of format f may hold;
// waiting is set while a plan call waits for its result. Only the records
// that can be a plan call are searched whole for a plan tool's name.
func classify(f plan.Format, l line, waiting bool) class {
	switch f {
	case plan.FormatClaudeTranscript:
		return classifyClaude(l, waiting)
	case plan.FormatCodexRollout:
		return classifyCodex(l, waiting)
	case plan.FormatGeminiSession:
		t := types(l)
		var c class
		if !l.long && (t&tGemini != 0 || starts(l, dollarSet)) && bytes.Contains(l.bytes, writeTodos) {
			c = classPlan | classWhole
		}
		if t&tUser != 0 && t&tFunctionResponse == 0 {
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

func classifyClaude(l line, waiting bool) class {
	t := types(l)
	switch {
	case t&tAssistant != 0:
		if !l.long && containsAny(l.bytes, claudeTools) {
			return classPlan | wholeIf(l.bytes)
		}
	case t&tUser != 0:
		var c class
		if waiting && !l.long {
			c = classPlan
		}
		if t&tToolResult == 0 {
			c |= classUser
		}
		return c
	}
	return 0
}

func classifyCodex(l line, waiting bool) class {
	t := types(l)
	switch {
	case t&tResponseItem != 0:
		if !l.long && (bytes.Contains(l.bytes, updatePlan) || waiting && t&tCallOutput != 0) {
			return classPlan | wholeIf(l.bytes)
		}
	case t&tEventMsg != 0 && t&(tUserMessage|tTurnAborted|tTaskStarted) != 0:
		return classUser
	}
	return 0
}

// generic is classify for a line of a transcript whose format is not known
// (read backwards, from the end): what a record of any of the formats may
// hold.
func generic(l line) class {
	t := types(l)
	var c class
	todos := starts(l, todosKey) || bytes.Contains(l.bytes[:min(len(l.bytes), 256)], todosKey) && starts(l, []byte(`{"version":`))
	maybeCall := t&(tAssistant|tResponseItem|tGemini) != 0 || starts(l, dollarSet) || todos
	if !l.long && maybeCall && (todos || containsAny(l.bytes, wholeTools) || containsAny(l.bytes, taskTools)) {
		c = classPlan | wholeIf(l.bytes)
		if todos {
			c |= classWhole
		}
	}
	if t&tUser != 0 && t&(tToolResult|tFunctionResponse) == 0 || t&tEventMsg != 0 && t&(tUserMessage|tTurnAborted|tTaskStarted) != 0 {
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
func readUser(b []byte, sidechains bool) (userKind, string, time.Time) {
	v, ok := members(string(b), false, "type", "message", "content", "id", "payload", "timestamp",
		"isMeta", "isCompactSummary", "isSidechain", "promptId", "uuid")
	if !ok {
		return userOther, "", time.Time{}
	}
	typ, message, content, id, payload, timestamp := v[0], v[1], v[2], v[3], v[4], v[5]
	var kind userKind
	var turn string
	switch jsonscan.Str(typ) {
	case "user":
		if message != "" {
			if v[6] == "true" || v[7] == "true" || v[8] == "true" && !sidechains {
				return userOther, "", time.Time{}
			}
			kind, turn = claudeUser(message, v[9], v[10])
		} else if content != "" && id != "" {
			kind, turn = geminiUser(content, id)
		}
	case "event_msg":
		kind, turn = codexEvent(payload)
	}
	if kind == userOther {
		return userOther, "", time.Time{}
	}
	t, _ := time.Parse(time.RFC3339Nano, jsonscan.Str(timestamp))
	return kind, turn, t
}

// claudeUser reads a Claude Code user record's message, promptId and uuid
// (raw JSON values).
func claudeUser(message, promptID, uuid string) (userKind, string) {
	c, _ := members(message, true, "content")
	text, ok := claudeText(c[0])
	if !ok {
		return userOther, ""
	}
	if strings.HasPrefix(strings.TrimSpace(text), interruptText) {
		return userInterrupt, ""
	}
	id := jsonscan.Str(promptID)
	if id == "" {
		id = jsonscan.Str(uuid)
	}
	return userPrompt, id
}

// geminiUser reads a Gemini CLI user message (its content and id, raw
// JSON): a prompt unless it holds a tool's result, or a held stop's reason
// (Gemini CLI sends it as the next user message).
func geminiUser(content, id string) (userKind, string) {
	other := false
	jsonscan.Each(content, func(part string) {
		f, _ := members(part, true, "functionResponse", "text")
		if f[0] != "" || strings.HasPrefix(jsonscan.Str(f[1]), ReasonLead) {
			other = true
		}
	})
	if other {
		return userOther, ""
	}
	return userPrompt, jsonscan.Str(id)
}

// codexEvent reads a Codex event's payload (raw JSON): a turn started (the
// person's prompt: Codex 0.171 writes no user_message event, and a Stop
// hook's continuation starts no turn), a user message (earlier versions),
// an interrupted turn.
func codexEvent(payload string) (userKind, string) {
	f, _ := members(payload, true, "type", "turn_attribution", "turn_id")
	switch jsonscan.Str(f[0]) {
	case "task_started":
		a, _ := members(f[1], true, "turn_id")
		id := jsonscan.Str(a[0])
		if id == "" {
			id = jsonscan.Str(f[2])
		}
		return userPrompt, id
	case "user_message":
		return userPrompt, ""
	case "turn_aborted":
		return userInterrupt, ""
	}
	return userOther, ""
}

// claudeText is the text of a Claude Code user message's content (raw
// JSON: a string, or text blocks); ok is false for content holding a tool
// result or nothing to read.
func claudeText(c string) (string, bool) {
	switch {
	case c == "":
		return "", false
	case c[0] == '"':
		return jsonscan.Str(c), true
	}
	var b strings.Builder
	blocks, result := 0, false
	jsonscan.Each(c, func(block string) {
		blocks++
		f, _ := members(block, true, "type", "text")
		switch jsonscan.Str(f[0]) {
		case "tool_result":
			result = true
		case "text":
			b.WriteString(jsonscan.Str(f[1]))
		}
	})
	if result {
		return "", false
	}
	return b.String(), b.Len() > 0 || blocks > 0
}
