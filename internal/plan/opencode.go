package plan

import (
	"bufio"
	"bytes"
	"errors"
	"strings"

	"github.com/todo-shell/todo-shell/internal/jsonscan"
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

func (opencode) claims(rec *record) bool {
	return rec.info != "" && isArray(rec.messages)
}

func (o opencode) read(p *Parser, rec *record, emit func(Event)) {
	jsonscan.Each(rec.messages, func(m string) {
		var f [2]string
		jsonscan.Pick(m, f[:], "info", "parts")
		var t [3]string
		jsonscan.Pick(f[0], t[:], "time", "role", "id")
		p.stampMillis(integer(get(t[0], "created")))
		assistant := jsonscan.Str(t[1]) == "assistant"
		if assistant {
			p.startMessage(keep(jsonscan.Str(t[2])))
		}
		jsonscan.Each(f[1], func(part string) { o.part(p, part, assistant, emit) })
	})
}

// part reads one part of a message.
func (opencode) part(p *Parser, part string, assistant bool, emit func(Event)) {
	var f [5]string
	jsonscan.Pick(part, f[:], "type", "text", "state", "tool", "callID")
	switch jsonscan.Str(f[0]) {
	case "text":
		if assistant {
			p.text(strings.TrimSpace(jsonscan.Str(f[1])), emit)
		}
	case "tool":
		var st [3]string
		jsonscan.Pick(f[2], st[:], "time", "input", "status")
		p.stampMillis(integer(get(st[0], "start")))
		name := jsonscan.Str(f[3])
		in := st[1]
		if name != "todowrite" {
			p.call(name, summarize(in), emit)
			return
		}
		var kept []string
		jsonscan.Each(get(in, "todos"), func(t string) {
			if jsonscan.Str(get(t, "status")) != "cancelled" {
				kept = append(kept, t)
			}
		})
		id := jsonscan.Str(f[4])
		p.planCall(id, p.last, items(kept), ids(kept), name, plural(len(kept), "todo"), emit)
		p.stampMillis(integer(get(st[0], "end")))
		switch jsonscan.Str(st[2]) {
		case "completed":
			p.planResult(id, true, emit)
		case "error":
			p.planResult(id, false, emit)
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
