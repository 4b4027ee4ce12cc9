package plan

import (
	"strings"

	"github.com/todo-shell/todo-shell/internal/jsonscan"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// codex reads a Codex session rollout (~/.codex/sessions/YYYY/MM/DD/
// rollout-<time>-<id>.jsonl), as the real Codex 0.169.0 writes it (fixture
// testdata/codex-0.169.0_rollout.jsonl; the format is Codex's own, written
// by codex-rs's rollout recorder, and not promised to stay the same):
//
//	{"timestamp":…,"type":"session_meta","payload":{"cwd":…,"cli_version":…}}
//	{"timestamp":…,"type":"response_item","payload":{"type":"function_call","name":"update_plan",
//	  "arguments":"{\"explanation\":…,\"plan\":[{\"step\":…,\"status\":\"in_progress\"}]}","call_id":…}}
//	{"timestamp":…,"type":"response_item","payload":{"type":"function_call_output","call_id":…,"output":"Plan updated"}}
//
// A plan version is an update_plan call (the whole plan: steps with
// pending, in_progress or completed), counted once its output arrives and
// is not one of the tool's refusals. Steps have no ids: they are matched by
// their words.
type codex struct{}

func (codex) format() Format { return FormatCodexRollout }

func (codex) claims(rec *record) bool {
	switch rec.typ {
	case "session_meta", "response_item", "event_msg", "turn_context":
		return rec.payload != ""
	}
	return false
}

// codexPayload is the raw fields of a response_item's payload that are
// read.
type codexPayload struct {
	typ, role, content, name, arguments, input, callID, output string
}

func (codex) read(p *Parser, rec *record, emit func(Event)) {
	p.stamp(jsonscan.Str(rec.timestamp))
	switch rec.typ {
	case "session_meta":
		if p.cwd == "" {
			p.cwd = keep(jsonscan.Str(get(rec.payload, "cwd")))
		}
		return
	case "response_item":
	default:
		return
	}
	var f [8]string
	jsonscan.Pick(rec.payload, f[:], "type", "role", "content", "name", "arguments", "input", "call_id", "output")
	pl := codexPayload{typ: f[0], role: f[1], content: f[2], name: f[3], arguments: f[4], input: f[5], callID: f[6], output: f[7]}
	switch jsonscan.Str(pl.typ) {
	case "message":
		codexMessage(p, pl, emit)
	case "function_call", "custom_tool_call":
		codexCall(p, pl, emit)
	case "function_call_output", "custom_tool_call_output":
		text := jsonscan.Str(pl.output)
		if !isString(pl.output) {
			text = jsonscan.Str(get(pl.output, "content"))
		}
		p.planResult(jsonscan.Str(pl.callID), codexPlanAccepted(text), emit)
	}
}

// codexMessage reads a message item's payload: the assistant's text.
func codexMessage(p *Parser, pl codexPayload, emit func(Event)) {
	if jsonscan.Str(pl.role) != "assistant" {
		return
	}
	// The model speaks again: the calls after this are of a new turn.
	p.startMessage("")
	jsonscan.Each(pl.content, func(c string) {
		p.text(strings.TrimSpace(jsonscan.Str(get(c, "text"))), emit)
	})
}

// codexCall reads a tool call item's payload: update_plan's steps, or
// another tool's call summarised.
func codexCall(p *Parser, pl codexPayload, emit func(Event)) {
	name := jsonscan.Str(pl.name)
	args := pl.arguments
	if !isString(args) {
		args = pl.input
	}
	in := jsonscan.Str(args)
	ok := jsonscan.Valid(in)
	if name != "update_plan" {
		detail := ""
		if ok {
			detail = summarize(in)
		}
		p.call(name, detail, emit)
		return
	}
	if !ok {
		return // arguments Codex itself could not parse: refused
	}
	steps := elems(get(in, "plan"))
	list := make([]todo.Item, 0, len(steps))
	var sf [2]string
	for _, s := range steps {
		jsonscan.Pick(s, sf[:], "step", "status")
		step := keep(jsonscan.Str(sf[0]))
		list = append(list, todo.Item{Content: step, ActiveForm: step, Status: knownStatus(jsonscan.Str(sf[1]))})
	}
	p.planCall(jsonscan.Str(pl.callID), p.last, list, nil, name, plural(len(list), "step"), emit)
}

// codexPlanAccepted reports whether an update_plan output is not one of
// its refusals (unparsable arguments; the tool called in Plan mode). Codex
// 0.169.0 answers a plan it took with "Plan updated".
func codexPlanAccepted(out string) bool {
	return !strings.HasPrefix(out, "failed to parse") && !strings.Contains(out, "not allowed in Plan mode") &&
		!strings.Contains(out, "unsupported payload")
}
