package plan

import (
	"strconv"
	"strings"

	"github.com/todo-shell/todo-shell/internal/jsonscan"
)

// resultState is what a plan call's tool_result said.
type resultState uint8

const (
	resultWaiting resultState = iota // no result yet
	resultOK                         // it succeeded: the plan changed
	resultFailed                     // rejected: the plan did not change
)

// succeeded reads a tool_result: is_error, and for the Task tools the
// structured result Claude Code writes beside the message, whose
// "success": false (TaskUpdate of a task that does not exist) comes without
// is_error.
func succeeded(kind callKind, b *block, rec *record) resultState {
	if b.isError == "true" {
		return resultFailed
	}
	if kind != callWrite && get(rec.result, "success") == "false" {
		return resultFailed
	}
	return resultOK
}

// startMessage notes the assistant message the next tool_use blocks belong
// to. Claude Code writes each block of one message as its own record with
// the same message id; a record without an id is a message of its own.
func (p *Parser) startMessage(id string) {
	if id == "" {
		p.msgs++
		id = "#" + strconv.Itoa(p.msgs)
	}
	p.msg = id
}

// wait adds a plan call to those waiting for their results: to the queue
// of its message, in call order.
func (p *Parser) wait(c *pendingCall) {
	if p.byID == nil {
		p.byID = map[string][]*pendingCall{}
		p.queues = map[string][]*pendingCall{}
	}
	q, ok := p.queues[c.msg]
	if !ok {
		p.msgOrder = append(p.msgOrder, c.msg)
	}
	p.queues[c.msg] = append(q, c)
	p.byID[c.id] = append(p.byID[c.id], c)
}

// answer takes the oldest call waiting for a result with id out of those
// waiting; nil when none waits (a result for no plan call, or a second
// result for one: the first counts). Each result costs a map lookup,
// whatever order the results come in.
func (p *Parser) answer(id string) *pendingCall {
	q := p.byID[id]
	if len(q) == 0 {
		return nil
	}
	if len(q) == 1 {
		delete(p.byID, id)
	} else {
		p.byID[id] = q[1:]
	}
	return q[0]
}

// release applies, in the order the model made them, the calls of message
// msg whose results have all arrived: a call waits for every call before it
// in its message. (Messages do not wait for each other: a model sends the
// next only once it has every result of the last.)
func (p *Parser) release(msg string, emit func(Event)) {
	q := p.queues[msg]
	for len(q) > 0 && q[0].result != resultWaiting {
		c := q[0]
		q[0] = nil
		q = q[1:]
		if c.result == resultOK {
			p.apply(*c, c.created, max(c.line, p.line), emit)
		}
	}
	if len(q) > 0 {
		p.queues[msg] = q
		return
	}
	delete(p.queues, msg)
	if len(p.msgOrder) > 2*len(p.queues)+16 {
		live := p.msgOrder[:0]
		for _, m := range p.msgOrder {
			if _, ok := p.queues[m]; ok {
				live = append(live, m)
			}
		}
		p.msgOrder = live
	}
}

// flushCalls completes every call still waiting as if it had succeeded,
// message by message in order.
func (p *Parser) flushCalls(emit func(Event)) {
	order := p.msgOrder
	p.msgOrder, p.byID = nil, nil
	for _, m := range order {
		for _, c := range p.queues[m] {
			if c.result == resultWaiting {
				c.result, c.line = resultOK, p.line
			}
		}
		p.release(m, emit)
	}
	p.queues = nil
}

// The plan tools, by the name they are called.
const (
	toolTodoWrite  = "TodoWrite"
	toolTaskCreate = "TaskCreate"
	toolTaskUpdate = "TaskUpdate"
)

// planTool returns the plan tool a call's name is ("" for none): the
// names Claude Code gives them, and TodoWrite as an MCP server's tool
// (mcp__<server>__TodoWrite, as todo-shell's own `mcp` publishes it), whose
// server it notes.
func (p *Parser) planTool(name string) string {
	base, server := toolBase(name)
	switch base {
	case toolTodoWrite, toolTaskCreate, toolTaskUpdate:
	default:
		return ""
	}
	if server != "" {
		if base != toolTodoWrite {
			return "" // another server's task tools: their shape is not known
		}
		p.tools.mcp = name
	}
	p.tools.plan = true
	return base
}

// toolBase splits an MCP tool name mcp__<server>__<tool> into the tool and
// the server; other names are returned as they are.
func toolBase(name string) (base, server string) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return name, ""
	}
	i := strings.LastIndex(rest, "__")
	if i <= 0 {
		return name, ""
	}
	return rest[i+2:], rest[:i]
}

func isPlanToolName(name string) bool {
	base, server := toolBase(name)
	return base == toolTodoWrite || server == "" && (base == toolTaskCreate || base == toolTaskUpdate)
}

// toolSight is what a transcript said about the tools the session had.
type toolSight struct {
	known bool   // the session's tools were listed
	plan  bool   // a plan tool was among them, or was called
	mcp   string // the MCP name of a TodoWrite called, if any
}

// sightTools reads the records where Claude Code 2.1 lists the session's
// tools: the request shape ({"type":"api-request-shape","shape":{"tools":
// [{"name":…}]}}) and the deferred tools the model may load
// ({"type":"attachment","attachment":{"type":"deferred_tools_delta",
// "addedNames":[…]}}).
func (p *Parser) sightTools(r *record) {
	var names []string
	switch r.typ {
	case "api-request-shape":
		tools := get(r.shape, "tools")
		if !isArray(tools) {
			return
		}
		jsonscan.Each(tools, func(t string) { names = append(names, get(t, "name")) })
	case "attachment":
		var f [2]string
		jsonscan.Pick(r.attachment, f[:], "type", "addedNames")
		if jsonscan.Str(f[0]) != "deferred_tools_delta" {
			return
		}
		names = elems(f[1])
	}
	p.tools.known = true
	for _, n := range names {
		if isPlanToolName(jsonscan.Str(n)) {
			p.tools.plan = true
		}
	}
}

// KeepsNoPlan reports whether the transcript listed the session's tools and
// none of them keeps a plan (Claude Code 2.1's default: its plan tools are
// offered only when CLAUDE_CODE_ENABLE_TODO_TOOLS=1), and no plan call was
// made. False when the transcript does not say.
func (p *Parser) KeepsNoPlan() bool { return p.tools.known && !p.tools.plan && p.n == 0 }

// MCPTool returns the MCP name of the TodoWrite the session called (such as
// mcp__todo-shell__TodoWrite), or "" when it called none.
func (p *Parser) MCPTool() string { return p.tools.mcp }
