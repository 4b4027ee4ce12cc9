package plan

import (
	"strings"

	"github.com/valyala/fastjson"

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

func (codex) claims(rec *fastjson.Value) bool {
	switch string(rec.GetStringBytes("type")) {
	case "session_meta", "response_item", "event_msg", "turn_context":
		return rec.Exists("payload")
	}
	return false
}

func (codex) read(p *Parser, rec *fastjson.Value, emit func(Event)) {
	p.stamp(rec.GetStringBytes("timestamp"))
	switch string(rec.GetStringBytes("type")) {
	case "session_meta":
		if p.cwd == "" {
			p.cwd = string(rec.GetStringBytes("payload", "cwd"))
		}
		return
	case "response_item":
	default:
		return
	}
	pl := rec.Get("payload")
	switch string(pl.GetStringBytes("type")) {
	case "message":
		codexMessage(p, pl, emit)
	case "function_call", "custom_tool_call":
		codexCall(p, pl, emit)
	case "function_call_output", "custom_tool_call_output":
		out := pl.Get("output")
		text := ""
		if out != nil && out.Type() == fastjson.TypeString {
			text = string(out.GetStringBytes())
		} else if out != nil {
			text = string(out.GetStringBytes("content"))
		}
		p.planResult(string(pl.GetStringBytes("call_id")), codexPlanAccepted(text), emit)
	}
}

// codexMessage reads a message item's payload: the assistant's text.
func codexMessage(p *Parser, pl *fastjson.Value, emit func(Event)) {
	if string(pl.GetStringBytes("role")) != "assistant" {
		return
	}
	// The model speaks again: the calls after this are of a new turn.
	p.startMessage("")
	for _, c := range pl.GetArray("content") {
		p.text(strings.TrimSpace(string(c.GetStringBytes("text"))), emit)
	}
}

// codexCall reads a tool call item's payload: update_plan's steps, or
// another tool's call summarised.
func codexCall(p *Parser, pl *fastjson.Value, emit func(Event)) {
	name := string(pl.GetStringBytes("name"))
	args := pl.GetStringBytes("arguments")
	if args == nil {
		args = pl.GetStringBytes("input")
	}
	var ap fastjson.Parser
	in, err := ap.ParseBytes(args)
	if name != "update_plan" {
		detail := ""
		if err == nil {
			detail = summarize(in)
		}
		p.call(name, detail, emit)
		return
	}
	if err != nil {
		return // arguments Codex itself could not parse: refused
	}
	steps := in.GetArray("plan")
	list := make([]todo.Item, 0, len(steps))
	for _, s := range steps {
		step := string(s.GetStringBytes("step"))
		list = append(list, todo.Item{Content: step, ActiveForm: step, Status: knownStatus(string(s.GetStringBytes("status")))})
	}
	p.planCall(string(pl.GetStringBytes("call_id")), p.last, list, nil, name, plural(len(list), "step"), emit)
}

// codexPlanAccepted reports whether an update_plan output is not one of
// its refusals (unparsable arguments; the tool called in Plan mode). Codex
// 0.169.0 answers a plan it took with "Plan updated".
func codexPlanAccepted(out string) bool {
	return !strings.HasPrefix(out, "failed to parse") && !strings.Contains(out, "not allowed in Plan mode") &&
		!strings.Contains(out, "unsupported payload")
}
