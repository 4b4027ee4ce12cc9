package plan

import (
	"time"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// agent reads the session records of one agent CLI other than Claude Code
// and todo-shell: Codex, Gemini CLI, opencode. Each is one small file of
// this package; a new agent is a new file with a type implementing agent,
// listed in agents. The Parser gives each record to the first agent that
// claims it (then only to that agent), and the agent reports what the
// record says through the parser's plan stream: planCall for a plan tool
// call, planResult for its result, text and call for playback.
type agent interface {
	// format is the format the agent's records make.
	format() Format
	// claims reports whether rec, a JSON object that is no todo-shell or
	// Claude Code record, is one of the agent's.
	claims(rec *record) bool
	// read reads one record.
	read(p *Parser, rec *record, emit func(Event))
}

// agents are the agents the Parser knows, tried in order.
func agents() []agent { return []agent{codex{}, gemini{}, opencode{}} }

// planCall starts a plan call of an agent: a whole new list, waiting for
// the result that says it succeeded (planResult; a call still waiting at
// the end of the stream counts, as in Flush). keys are the items' ids, or
// nil. ownRules says the list is not held to TodoWrite's rules.
func (p *Parser) planCall(id string, at time.Time, list []todo.Item, keys []string, name, detail string, emit func(Event)) {
	name = keep(name)
	if p.Playback {
		emit(Event{Kind: KindCall, Line: p.line, Time: p.last, Text: name, Detail: detail})
	}
	p.wait(&pendingCall{kind: callWrite, id: keep(id), msg: p.msg, time: at, items: list, keys: keys, own: true, name: name, detail: detail})
}

// planResult settles the plan call id: ok when it succeeded.
func (p *Parser) planResult(id string, ok bool, emit func(Event)) {
	c := p.answer(id)
	if c == nil {
		return
	}
	c.result, c.line = resultFailed, p.line
	if ok {
		c.result = resultOK
	} else {
		p.failed(c, "", emit)
	}
	p.release(c.msg, emit)
}

// text and call are playback events of an agent's record.
func (p *Parser) text(s string, emit func(Event)) {
	if p.Playback && s != "" {
		emit(Event{Kind: KindText, Line: p.line, Time: p.last, Text: keep(s)})
	}
}

func (p *Parser) call(name, detail string, emit func(Event)) {
	if p.Playback {
		emit(Event{Kind: KindCall, Line: p.line, Time: p.last, Text: keep(name), Detail: detail})
	}
}

// agentRecord gives a record no other format claimed to the agents.
func (p *Parser) agentRecord(v *record, emit func(Event)) {
	if p.agent == nil {
		for _, a := range agents() {
			if a.claims(v) {
				p.agent = a
				break
			}
		}
		if p.agent == nil {
			return
		}
	} else if !p.agent.claims(v) {
		return
	}
	p.see(p.agent.format())
	p.agent.read(p, v, emit)
}

// stampMillis sets the time from milliseconds since the epoch.
func (p *Parser) stampMillis(ms int64) {
	if ms > 0 {
		p.last = time.UnixMilli(ms).UTC()
	}
}

// Cwd returns the working directory of the session, when its records name
// it (Claude Code's "cwd", Codex's session_meta); "" otherwise.
func (p *Parser) Cwd() string { return p.cwd }
