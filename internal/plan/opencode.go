package plan

import (
	"bufio"
	"bytes"
	"errors"
	"strings"

	"github.com/valyala/fastjson"
)

// opencode reads an opencode session as `opencode export <session>` prints
// it: one JSON document, {"info":{"id","directory",…},"messages":[{"info":
// {"role","time":{"created"}},"parts":[…]}]}, as the real opencode 1.18.33
// wrote it (fixture testdata/opencode-1.18.33_export.json). opencode 1.x
// keeps its sessions in a SQLite database (~/.local/share/opencode/
// opencode.db, tables session, message, part and todo), which todo-shell
// does not read; the export is the CLI's own way out of it.
//
// A plan version is a todowrite tool part whose state is "completed":
// {"type":"tool","tool":"todowrite","callID":…,"state":{"status":"completed",
// "input":{"todos":[{"id","content","status","priority"}]},"time":{"start","end"}}}.
// A "cancelled" item has left the plan unfinished (it is DROPPED).
type opencode struct{}

func (opencode) format() Format { return FormatOpencodeExport }

func (opencode) claims(rec *fastjson.Value) bool {
	return rec.Exists("info") && rec.Get("messages") != nil && rec.Get("messages").Type() == fastjson.TypeArray
}

func (opencode) read(p *Parser, rec *fastjson.Value, emit func(Event)) {
	for _, m := range rec.GetArray("messages") {
		info := m.Get("info")
		p.stampMillis(info.GetInt64("time", "created"))
		assistant := string(info.GetStringBytes("role")) == "assistant"
		if assistant {
			p.startMessage(string(info.GetStringBytes("id")))
		}
		for _, part := range m.GetArray("parts") {
			switch string(part.GetStringBytes("type")) {
			case "text":
				if assistant {
					p.text(strings.TrimSpace(string(part.GetStringBytes("text"))), emit)
				}
			case "tool":
				st := part.Get("state")
				p.stampMillis(st.GetInt64("time", "start"))
				name := string(part.GetStringBytes("tool"))
				in := st.Get("input")
				if name != "todowrite" {
					detail := ""
					if in != nil {
						detail = summarize(in)
					}
					p.call(name, detail, emit)
					continue
				}
				arr := in.GetArray("todos")
				var kept []*fastjson.Value
				for _, t := range arr {
					if string(t.GetStringBytes("status")) != "cancelled" {
						kept = append(kept, t)
					}
				}
				id := string(part.GetStringBytes("callID"))
				p.planCall(id, p.last, items(kept), ids(kept), name, plural(len(kept), "todo"), emit)
				p.stampMillis(st.GetInt64("time", "end"))
				switch string(st.GetStringBytes("status")) {
				case "completed":
					p.planResult(id, true, emit)
				case "error":
					p.planResult(id, false, emit)
				}
			}
		}
	}
}

// wholeDocument reports whether br starts a JSON document printed over
// several lines (a first line of just "{"), as opencode's export is; if so
// it returns the document, at most limit bytes, as one line.
func wholeDocument(br *bufio.Reader, limit int) ([]byte, bool, error) {
	head, _ := br.Peek(64)
	first, _, _ := bytes.Cut(head, []byte("\n"))
	if string(bytes.TrimSpace(first)) != "{" || !bytes.Contains(head, []byte("\n")) {
		return nil, false, nil
	}
	var doc []byte
	for {
		line, err := br.ReadSlice('\n')
		if len(doc)+len(line) > limit {
			return nil, true, errDocTooLarge
		}
		doc = append(doc, bytes.TrimRight(line, "\r\n")...)
		doc = append(doc, ' ')
		if err != nil {
			if errors.Is(err, bufio.ErrBufferFull) {
				doc = doc[:len(doc)-1]
				continue
			}
			return doc, true, nil
		}
	}
}
