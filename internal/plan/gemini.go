package plan

import (
	"strconv"
	"strings"

	"github.com/todo-shell/todo-shell/internal/jsonscan"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// gemini reads a Gemini CLI session (~/.gemini/tmp/<project>/chats/
// session-<time>-<id>.jsonl), as the real Gemini CLI 0.61.0 writes it
// (fixture testdata/gemini-cli-0.61.0_session.jsonl; the format is Gemini
// CLI's own and not promised to stay the same):
//
//	{"sessionId":…,"projectHash":…,"startTime":…,"kind":"main"}
//	{"id":…,"timestamp":…,"type":"user","content":[{"text":…}]}
//	{"id":…,"timestamp":…,"type":"gemini","content":"…","toolCalls":[{"id":…,"name":"write_todos",
//	  "args":{"todos":[{"description":…,"status":"in_progress"}]},"status":"success",…}]}
//	{"$set":{"lastUpdated":…}}  (and {"$set":{"messages":[…]}} with whole messages)
//
// A message is written again as it completes, so a call is read once, by
// its id, when its status is known. A plan version is a write_todos call
// whose status is "success": the whole list, statuses pending, in_progress,
// completed and cancelled; a cancelled item has left the plan unfinished
// (it is DROPPED). Items have no ids: they are matched by their words.
type gemini struct{}

func (gemini) format() Format { return FormatGeminiSession }

func (gemini) claims(rec *record) bool {
	if rec.set != "" || rec.sessionID != "" && rec.projectHash != "" {
		return true
	}
	switch rec.typ {
	case "gemini", "user", "info", "error", "warning":
		return rec.id != "" && rec.content != ""
	}
	return false
}

func (g gemini) read(p *Parser, rec *record, emit func(Event)) {
	if rec.set != "" {
		jsonscan.Each(get(rec.set, "messages"), func(m string) { g.message(p, m, emit) })
		return
	}
	g.message(p, rec.raw, emit)
}

func (g gemini) message(p *Parser, m string, emit func(Event)) {
	var f [5]string
	jsonscan.Pick(m, f[:], "timestamp", "type", "id", "content", "toolCalls")
	p.stamp(jsonscan.Str(f[0]))
	if jsonscan.Str(f[1]) != "gemini" {
		return
	}
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	id := jsonscan.Str(f[2])
	if !p.seen["text:"+id] {
		if t := strings.TrimSpace(jsonscan.Str(f[3])); t != "" {
			p.seen["text:"+id] = true
			p.text(t, emit)
		}
	}
	for _, c := range elems(f[4]) {
		g.toolCall(p, c, emit)
	}
}

// toolCall reads one of a message's tool calls, once its status is known.
func (gemini) toolCall(p *Parser, c string, emit func(Event)) {
	var cf [5]string
	jsonscan.Pick(c, cf[:], "status", "id", "timestamp", "name", "args")
	status := jsonscan.Str(cf[0])
	callID := keep(jsonscan.Str(cf[1]))
	if status == "" || p.seen[callID] {
		return // not done yet, or read already
	}
	p.seen[callID] = true
	p.stamp(jsonscan.Str(cf[2]))
	name := jsonscan.Str(cf[3])
	args := cf[4]
	if name != "write_todos" {
		p.call(name, summarize(args), emit)
		return
	}
	var list []todo.Item
	cancelled := 0
	var tf [2]string
	for _, t := range elems(get(args, "todos")) {
		jsonscan.Pick(t, tf[:], "status", "description")
		st := jsonscan.Str(tf[0])
		if st == "cancelled" {
			cancelled++ // left the plan unfinished
			continue
		}
		d := keep(jsonscan.Str(tf[1]))
		list = append(list, todo.Item{Content: d, ActiveForm: d, Status: knownStatus(st)})
	}
	detail := plural(len(list), "todo")
	if cancelled > 0 { // the call's own count, the cancelled ones said
		detail = plural(len(list)+cancelled, "todo") + ", " + strconv.Itoa(cancelled) + " cancelled"
	}
	p.planCall(callID, p.last, list, nil, name, detail, emit)
	p.planResult(callID, status == "success", emit)
}
