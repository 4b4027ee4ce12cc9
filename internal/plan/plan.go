// Package plan turns a stream of session records into the versions of the
// plan they carry. It reads three formats, line by line, and tells them apart
// by each record's shape:
//
//   - todo-shell's todos.jsonl: {"version":N,"time":…,"tool_use_id":…,"todos":[…]};
//   - todo-shell's agent transcript.jsonl: {"type":"request"|"response","time":…,"message":{…}};
//   - a Claude Code session transcript (~/.claude/projects/<dir>/<uuid>.jsonl):
//     {"type":"assistant"|"user","timestamp":…,"message":{…}}, a format
//     Claude Code does not document or promise.
//
// In the transcripts a plan version is a TodoWrite tool_use (both todo
// shapes: {content,status,activeForm} and the 1.x {id,content,status,priority},
// where content stands in for a missing activeForm), or a TaskCreate or
// TaskUpdate call (Claude Code 2.1.16 and later), counted once its
// tool_result arrives and is not an error. Records of any other type are
// skipped. The package reads; it draws nothing and knows no terminal.
package plan

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/todo-shell/todo-shell/internal/jsonscan"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Version is one version of the plan.
type Version struct {
	N         int         // 1 for the first version of the stream (todos.jsonl: its own number)
	Time      time.Time   // when it was recorded; zero when the record had no time
	ToolUseID string      // the tool call that made it
	Todos     []todo.Item // the whole list
	// Keys, when not nil, name each item of Todos for matching it across
	// versions: the task ids of a TaskCreate list, or the ids of a 1.x
	// TodoWrite list. Without them items are matched by their content.
	Keys []string
	Line int // the line of the record that completed it
	// Tasks is set for a list made by Claude Code's Task tools, whose rules
	// are not TodoWrite's (several tasks may be in progress at once).
	Tasks bool
	// Info, when not nil, holds what a task list keeps beside each item of
	// Todos: its id, owner, description and blockers.
	Info []ItemInfo
	// OwnRules is set for the list of an agent whose plan tool has rules of
	// its own, not TodoWrite's (Codex, Gemini CLI, opencode).
	OwnRules bool
}

// Kind says what an Event carries.
type Kind uint8

// Kinds of events.
const (
	KindVersion Kind = iota // a new plan version
	KindText                // text the assistant wrote
	KindCall                // a tool call
	// KindFailed is a plan tool's call that failed (the plan did not
	// change), at its result: Text and Detail as its KindCall's, Reason
	// what the result said.
	KindFailed
)

// Event is one thing a stream shows, in order.
type Event struct {
	Kind    Kind
	Line    int       // the record's line number (1-based)
	Time    time.Time // the record's time, or the last time seen before it
	Text    string    // KindText: the text; KindCall: the tool's name
	Detail  string    // KindCall: a short form of the input ("10 todos", the command)
	Reason  string    // KindFailed: the result's first line ("Task not found"), or ""
	Version *Version  // KindVersion
}

// Format is the kind of stream a Parser has recognised.
type Format uint8

// Formats.
const (
	FormatUnknown Format = iota
	FormatTodosJSONL
	FormatShellTranscript
	FormatClaudeTranscript
	FormatCodexRollout
	FormatGeminiSession
	FormatOpencodeExport
	// FormatTaskJournal is a todo-shell task plan's tasks.jsonl, read as
	// todos.jsonl lines marked "tasks":true (see replayui).
	FormatTaskJournal
)

func (f Format) String() string {
	switch f {
	case FormatTodosJSONL:
		return "todo-shell todos.jsonl"
	case FormatTaskJournal:
		return "todo-shell tasks.jsonl"
	case FormatShellTranscript:
		return "todo-shell transcript"
	case FormatClaudeTranscript:
		return "Claude Code transcript"
	case FormatCodexRollout:
		return "Codex rollout"
	case FormatGeminiSession:
		return "Gemini CLI session"
	case FormatOpencodeExport:
		return "opencode session export"
	}
	return "unknown"
}

// LineError is a line the parser could not read.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// callKind is what a pending tool call will do once its result arrives.
type callKind uint8

const (
	callWrite callKind = iota
	callCreate
	callUpdate
)

// pendingCall is a plan tool call waiting for its tool_result.
type pendingCall struct {
	kind       callKind
	id         string
	msg        string // the assistant message that made it
	time       time.Time
	result     resultState
	created    string // callCreate: the id the result gave the new task
	line       int    // the line of its result
	upd        taskUpdate
	own        bool        // callWrite of an agent whose list has its own rules
	items      []todo.Item // callWrite
	keys       []string    // callWrite: the 1.x ids, or nil
	subject    string      // callCreate, callUpdate (when changed)
	activeForm string
	taskID     string // callUpdate
	status     string // callUpdate
	name       string // the tool's name and its KindCall's detail, for a
	detail     string // KindFailed
}

// Parser reads records one line at a time. Its zero value is ready; set
// Playback to also get text and tool-call events. A Parser is not safe for
// concurrent use.
type Parser struct {
	// Playback, when set, makes Feed emit KindText and KindCall events too.
	Playback bool
	// Sidechains, when set, reads a Claude Code sub-agent's records
	// ("isSidechain":true) as the plan's, as they are in the sub-agent's
	// own transcript (subagents/agent-<id>.jsonl); by default they are
	// skipped as no part of the session's plan.
	Sidechains bool

	format   Format
	line     int
	n        int
	last     time.Time
	queues   map[string][]*pendingCall // by message: its calls in call order, until applied (or dropped)
	msgOrder []string                  // the messages of queues, in order (and some done ones)
	byID     map[string][]*pendingCall // the calls waiting for a result, by id, oldest first
	tasks    []task
	maxTask  int
	records  int // lines recognised as records of a known format
	firstBad *LineError
	msg      string // the assistant message of the last tool_use
	msgs     int    // assistant messages without an id seen so far
	tools    toolSight
	agent    agent           // the agent whose records these are, once known
	seen     map[string]bool // calls an agent has read (Gemini CLI writes them again)
	cwd      string          // the session's working directory, when a record names it
	rec      record          // the record being read (kept here: no allocation per line)
	blocks   []block         // the content blocks of the message being read
}

// Format returns the format recognised so far.
func (p *Parser) Format() Format { return p.format }

// Records returns how many lines were records of a known format.
func (p *Parser) Records() int { return p.records }

// Lines returns how many lines were fed.
func (p *Parser) Lines() int { return p.line }

// Skip counts a line that was not fed (too long to read), so that the
// lines after it keep their numbers.
func (p *Parser) Skip() { p.line++ }

// Feed reads one line (with or without its newline) and calls emit for each
// event it completes; nothing it keeps or emits refers to line's bytes, which
// the caller may reuse once it returns. A line that is not JSON is a *LineError; the parser
// stays usable. Blank lines and records of unknown types are skipped.
func (p *Parser) Feed(line []byte, emit func(Event)) error {
	p.line++
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	r := &p.rec
	*r = record{}
	// The line is read in place, not copied: what the parser keeps is
	// copied out of it (keep), and TestFeedKeepsNoByteOfTheLine scribbles
	// over each line after Feed to prove it.
	if err := readRecord(unsafe.String(unsafe.SliceData(line), len(line)), r); err != nil {
		if errors.Is(err, errNotObject) {
			return p.bad(err)
		}
		return p.bad(fmt.Errorf("not a JSON record: %w", err))
	}
	switch typ := r.typ; {
	case r.todos != "" && r.version != "":
		if r.tasks == "true" {
			p.see(FormatTaskJournal)
		} else {
			p.see(FormatTodosJSONL)
		}
		return p.todosLine(r, emit)
	case (typ == "request" || typ == "response") && r.message != "":
		p.see(FormatShellTranscript)
		p.stamp(jsonscan.Str(r.time))
		p.message(r.message, r, emit)
	case (typ == "assistant" || typ == "user") && r.message != "":
		p.see(FormatClaudeTranscript)
		if p.cwd == "" {
			p.cwd = keep(jsonscan.Str(r.cwd))
		}
		if r.isSidechain == "true" && !p.Sidechains {
			return nil // a sub-agent's record: its calls are not the session's plan
		}
		p.stamp(jsonscan.Str(r.timestamp))
		p.message(r.message, r, emit)
	case typ == "attachment" || typ == "api-request-shape":
		p.see(FormatClaudeTranscript)
		p.sightTools(r)
	default:
		p.agentRecord(r, emit)
	}
	return nil
}

// Flush completes the calls still waiting for a result, as if each had
// succeeded: at the end of a file, the last call of a session cut off before
// its result still shows.
func (p *Parser) Flush(emit func(Event)) { p.flushCalls(emit) }

// FirstError returns the first line the parser could not read, or nil.
func (p *Parser) FirstError() *LineError { return p.firstBad }

func (p *Parser) bad(err error) error {
	e := &LineError{Line: p.line, Err: err}
	if p.firstBad == nil {
		p.firstBad = e
	}
	return e
}

func (p *Parser) see(f Format) {
	p.records++
	if p.format == FormatUnknown {
		p.format = f
	}
}

func (p *Parser) stamp(s string) {
	if s == "" {
		return
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		p.last = t
	}
}

func (p *Parser) todosLine(r *record, emit func(Event)) error {
	if !isArray(r.todos) {
		return p.bad(fmt.Errorf("'todos' is not an array"))
	}
	p.stamp(jsonscan.Str(r.time))
	n := int(integer(r.version))
	if n <= 0 {
		n = p.n + 1
	}
	p.n = n
	ver := &Version{
		N: n, Time: p.last, ToolUseID: keep(jsonscan.Str(r.toolUseID)), Todos: items(elems(r.todos)), Line: p.line,
		Tasks: r.tasks == "true", // a task plan: several in progress is no broken rule
	}
	if info := elems(r.info); ver.Tasks && len(info) == len(ver.Todos) {
		ver.Info, ver.Keys = make([]ItemInfo, len(info)), make([]string, len(info))
		var f [5]string
		for i, in := range info {
			jsonscan.Pick(in, f[:], "id", "owner", "description", "blocks", "blocked_by")
			ver.Info[i] = ItemInfo{
				ID: keep(jsonscan.Str(f[0])), Owner: keep(jsonscan.Str(f[1])), Description: keep(jsonscan.Str(f[2])),
				Blocks: stringsOf(f[3]), BlockedBy: stringsOf(f[4]),
			}
			ver.Keys[i] = ver.Info[i].ID
		}
	}
	emit(Event{Kind: KindVersion, Line: p.line, Time: p.last, Version: ver})
	return nil
}

// stringsOf returns the strings of a JSON array (others skipped).
func stringsOf(arr string) []string {
	var out []string
	jsonscan.Each(arr, func(v string) {
		if isString(v) {
			out = append(out, keep(jsonscan.Str(v)))
		}
	})
	return out
}

// message reads one message's content blocks. rec is the whole record
// (Claude Code puts a tool's structured result beside the message).
func (p *Parser) message(m string, rec *record, emit func(Event)) {
	role, id := p.readMessage(m)
	if role == "assistant" {
		p.startMessage(keep(id))
	}
	for i := range p.blocks {
		b := &p.blocks[i]
		switch jsonscan.Str(b.typ) {
		case "text":
			if p.Playback && role == "assistant" {
				if t := strings.TrimSpace(jsonscan.Str(b.text)); t != "" {
					emit(Event{Kind: KindText, Line: p.line, Time: p.last, Text: keep(t)})
				}
			}
		case "tool_use":
			p.toolUse(b, emit)
		case "tool_result":
			p.toolResult(b, rec, emit)
		}
	}
}

// block is the raw fields of a message's content block that are read.
type block struct {
	typ, text, name, id, input, toolUseID, isError, content string
}

// readMessage reads a message's role and id, and its content blocks into
// p.blocks, in one walk.
func (p *Parser) readMessage(m string) (role, id string) {
	p.blocks = p.blocks[:0]
	var f [2]string
	content := false
	d := jsonscan.NewValid(m)
	if d.PeekKind() != jsonscan.KindObject {
		return "", ""
	}
	_ = d.Object(func(key string) error {
		if key != "content" || content || d.PeekKind() != jsonscan.KindArray {
			i := slices.Index([]string{"role", "id"}, key)
			if i < 0 || f[i] != "" {
				return d.Skip()
			}
			raw, err := d.Raw()
			f[i] = raw
			return err
		}
		content = true // the first content counts
		return d.Array(func() error {
			var b [8]string
			err := d.Pick(b[:], "type", "text", "name", "id", "input", "tool_use_id", "is_error", "content")
			p.blocks = append(p.blocks, block{typ: b[0], text: b[1], name: b[2], id: b[3], input: b[4], toolUseID: b[5], isError: b[6], content: b[7]})
			return err
		})
	})
	return jsonscan.Str(f[0]), jsonscan.Str(f[1])
}

func (p *Parser) toolUse(b *block, emit func(Event)) {
	name := keep(jsonscan.Str(b.name))
	id := keep(jsonscan.Str(b.id))
	in := b.input
	c := pendingCall{id: id, msg: p.msg, time: p.last}
	var detail string
	switch p.planTool(name) {
	case "TodoWrite":
		arr := elems(get(in, "todos"))
		c.kind, c.items, c.keys = callWrite, items(arr), ids(arr)
		detail = plural(len(arr), "todo")
	case "TaskCreate":
		var f [2]string
		jsonscan.Pick(in, f[:], "subject", "activeForm")
		c.kind = callCreate
		c.subject, c.activeForm = keep(jsonscan.Str(f[0])), keep(jsonscan.Str(f[1]))
		c.upd = readTaskUpdate(in)
		detail = c.subject
	case "TaskUpdate":
		var f [4]string
		jsonscan.Pick(in, f[:], "taskId", "status", "subject", "activeForm")
		c.kind = callUpdate
		c.taskID = keep(scalar(f[0]))
		c.status, c.subject, c.activeForm = keep(jsonscan.Str(f[1])), keep(jsonscan.Str(f[2])), keep(jsonscan.Str(f[3]))
		c.upd = readTaskUpdate(in)
		detail = strings.TrimSpace("#" + c.taskID + " " + c.status)
	default:
		if p.Playback {
			emit(Event{Kind: KindCall, Line: p.line, Time: p.last, Text: name, Detail: summarize(in)})
		}
		return
	}
	if p.Playback {
		emit(Event{Kind: KindCall, Line: p.line, Time: p.last, Text: name, Detail: detail})
	}
	c.name, c.detail = name, detail
	p.wait(&c)
}

func (p *Parser) toolResult(b *block, rec *record, emit func(Event)) {
	c := p.answer(jsonscan.Str(b.toolUseID))
	if c == nil {
		return
	}
	c.result, c.line = succeeded(c.kind, b, rec), p.line
	if c.result == resultOK && c.kind == callCreate {
		c.created = createdID(b, rec)
	}
	if c.result == resultFailed {
		why := jsonscan.Str(get(rec.result, "error"))
		if why == "" {
			why = resultText(b.content)
		}
		p.failed(c, why, emit)
	}
	// Apply the calls of a message in the order the model made them,
	// whatever order their results were written in.
	p.release(c.msg, emit)
}

// failed emits the KindFailed event of the call c, which failed saying
// why (playback only).
func (p *Parser) failed(c *pendingCall, why string, emit func(Event)) {
	if !p.Playback {
		return
	}
	why = strings.TrimSpace(why)
	why = strings.TrimSuffix(strings.TrimPrefix(why, "<tool_use_error>"), "</tool_use_error>")
	why, _, _ = strings.Cut(strings.TrimSpace(why), "\n")
	emit(Event{Kind: KindFailed, Line: p.line, Time: p.last, Text: c.name, Detail: c.detail, Reason: keep(strings.TrimSpace(why))})
}

// apply makes the new version a successful call leads to and emits it.
func (p *Parser) apply(c pendingCall, created string, line int, emit func(Event)) {
	var list []todo.Item
	var keys []string
	switch c.kind {
	case callWrite:
		list, keys = c.items, c.keys
	case callCreate:
		p.createTask(c, created)
		list, keys = p.taskItems()
	case callUpdate:
		p.updateTask(c)
		list, keys = p.taskItems()
	}
	p.n++
	t := c.time
	if t.IsZero() {
		t = p.last
	}
	v := &Version{N: p.n, Time: t, ToolUseID: c.id, Todos: list, Keys: keys, Line: line}
	if c.kind != callWrite {
		v.Tasks, v.Info = true, p.taskInfo()
	}
	v.OwnRules = c.own
	emit(Event{Kind: KindVersion, Line: line, Time: t, Version: v})
}

// createdID finds the id Claude Code gave a new task: in the structured
// result beside the message ({"toolUseResult":{"task":{"id":"3"}}}) or in
// the result text ("Task #3 created successfully: …").
func createdID(b *block, rec *record) string {
	if id := scalar(get(rec.result, "task", "id")); id != "" {
		return keep(id)
	}
	text := resultText(b.content)
	if i := strings.Index(text, "Task #"); i >= 0 {
		j := i + len("Task #")
		k := j
		for k < len(text) && text[k] >= '0' && text[k] <= '9' {
			k++
		}
		if k > j {
			return keep(text[j:k])
		}
	}
	return ""
}

// resultText is a tool_result's content: a string, or its text blocks.
func resultText(c string) string {
	if isString(c) {
		return jsonscan.Str(c)
	}
	var sb strings.Builder
	jsonscan.Each(c, func(part string) { sb.WriteString(jsonscan.Str(get(part, "text"))) })
	return sb.String()
}

// scalar returns a string or number value as text, "" otherwise.
func scalar(raw string) string {
	switch {
	case isString(raw):
		return jsonscan.Str(raw)
	case isNumber(raw):
		return raw
	}
	return ""
}

// items reads a todos array in either shape. A missing activeForm is the
// content; unknown fields (id, priority) are ignored; the status is
// knownStatus's.
func items(arr []string) []todo.Item {
	list := make([]todo.Item, len(arr))
	var f [3]string
	for i, v := range arr {
		jsonscan.Pick(v, f[:], "content", "status", "activeForm")
		it := todo.Item{Content: keep(jsonscan.Str(f[0])), Status: knownStatus(jsonscan.Str(f[1])), ActiveForm: keep(jsonscan.Str(f[2]))}
		if it.ActiveForm == "" {
			it.ActiveForm = it.Content
		}
		list[i] = it
	}
	return list
}

// knownStatus is status when it is one of the three a plan's item has,
// else pending: only a damaged or forged file has another (Gemini CLI's
// "cancelled" is taken out before), and the panel draws it as pending, so
// every count adds up as drawn.
func knownStatus(status string) string {
	switch status { // the constants: no string of a line is kept
	case todo.StatusInProgress:
		return todo.StatusInProgress
	case todo.StatusCompleted:
		return todo.StatusCompleted
	}
	return todo.StatusPending
}

// ids returns the ids of a 1.x todos array when every item has a distinct
// one, nil otherwise.
func ids(arr []string) []string {
	if len(arr) == 0 {
		return nil
	}
	keys := make([]string, len(arr))
	seen := make(map[string]bool, len(arr))
	for i, v := range arr {
		id := scalar(get(v, "id"))
		if id == "" || seen[id] {
			return nil
		}
		seen[id] = true
		keys[i] = "id:" + id
	}
	return keys
}

// summarize picks the input field that says most about a tool call.
func summarize(in string) string {
	var f [8]string
	jsonscan.Pick(in, f[:], "command", "file_path", "path", "pattern", "url", "query", "description", "prompt")
	for _, v := range f {
		if s := jsonscan.Str(v); s != "" {
			return keep(Shorten(s, 60))
		}
	}
	return ""
}

// Shorten returns the first line of s, cut to at most n characters with "…".
func Shorten(s string, n int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
