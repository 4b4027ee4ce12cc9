package plan

import (
	"strconv"
	"strings"

	"github.com/valyala/fastjson"

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

func (gemini) claims(rec *fastjson.Value) bool {
	if rec.Exists("$set") || rec.Exists("sessionId") && rec.Exists("projectHash") {
		return true
	}
	switch string(rec.GetStringBytes("type")) {
	case "gemini", "user", "info", "error", "warning":
		return rec.Exists("id") && rec.Exists("content")
	}
	return false
}

func (g gemini) read(p *Parser, rec *fastjson.Value, emit func(Event)) {
	if set := rec.Get("$set"); set != nil {
		for _, m := range set.GetArray("messages") {
			g.message(p, m, emit)
		}
		return
	}
	g.message(p, rec, emit)
}

func (gemini) message(p *Parser, m *fastjson.Value, emit func(Event)) {
	p.stamp(m.GetStringBytes("timestamp"))
	if string(m.GetStringBytes("type")) != "gemini" {
		return
	}
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	id := string(m.GetStringBytes("id"))
	if !p.seen["text:"+id] {
		if t := strings.TrimSpace(string(m.GetStringBytes("content"))); t != "" {
			p.seen["text:"+id] = true
			p.text(t, emit)
		}
	}
	for _, c := range m.GetArray("toolCalls") {
		status := string(c.GetStringBytes("status"))
		callID := string(c.GetStringBytes("id"))
		if status == "" || p.seen[callID] {
			continue // not done yet, or read already
		}
		p.seen[callID] = true
		p.stamp(c.GetStringBytes("timestamp"))
		name := string(c.GetStringBytes("name"))
		args := c.Get("args")
		if name != "write_todos" {
			detail := ""
			if args != nil {
				detail = summarize(args)
			}
			p.call(name, detail, emit)
			continue
		}
		var list []todo.Item
		cancelled := 0
		for _, t := range args.GetArray("todos") {
			st := string(t.GetStringBytes("status"))
			if st == "cancelled" {
				cancelled++ // left the plan unfinished
				continue
			}
			d := string(t.GetStringBytes("description"))
			list = append(list, todo.Item{Content: d, ActiveForm: d, Status: knownStatus(st)})
		}
		detail := plural(len(list), "todo")
		if cancelled > 0 { // the call's own count, the cancelled ones said
			detail = plural(len(list)+cancelled, "todo") + ", " + strconv.Itoa(cancelled) + " cancelled"
		}
		p.planCall(callID, p.last, list, nil, name, detail, emit)
		p.planResult(callID, status == "success", emit)
	}
}
