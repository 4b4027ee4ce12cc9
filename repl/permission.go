package repl

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/internal/agent"
	"github.com/todo-shell/todo-shell/render"
)

// Permissions carries a person's answers to the agent's permission
// questions: the agent's Ask (agent.Config.Ask) waits on it, the shell
// answers from the keys typed while the question shows in the live area.
type Permissions struct {
	answers chan agent.Answer
}

// NewPermissions returns the channel between an agent and the shell.
func NewPermissions() *Permissions {
	return &Permissions{answers: make(chan agent.Answer)}
}

// Ask waits for the person's answer, or for ctx to end (Ctrl+C), which is a
// refusal. The question itself reaches the shell as an
// agent.PermissionAsked event, just before.
func (p *Permissions) Ask(ctx context.Context, _ agent.Question) agent.Answer {
	select {
	case a := <-p.answers:
		return a
	case <-ctx.Done():
		return agent.Answer{Kind: agent.Refuse}
	}
}

// asking is a question showing in the live area.
type asking struct {
	q         agent.Question
	reasoning bool // n was pressed: the input line takes the reason
}

// answer gives the waiting agent the person's answer (it is blocked in
// Ask, so the send does not wait long; it runs as a command all the same).
func (m *Model) answer(a agent.Answer) tea.Cmd {
	p := m.cfg.Permissions
	if p == nil {
		return nil
	}
	return func() tea.Msg {
		p.answers <- a
		return nil
	}
}

// permissionKey handles a key while a question shows: y, a, n (then the
// reason and Enter). Ctrl+C is not handled here: it interrupts the turn,
// which refuses the call.
func (m *Model) permissionKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	q := m.running.asking
	if q.reasoning {
		if msg.Keystroke() == "enter" {
			reason := strings.TrimSpace(m.input.Value())
			m.input.Reset()
			m.running.asking = nil
			m.layout()
			cmd := m.answer(agent.Answer{Kind: agent.Refuse, Reason: reason})
			return m, cmd
		}
		if text := typedText(msg); text != "" {
			m.input.InsertString(normalizeNewlines(text))
			m.layout()
			return m, nil
		}
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		m.layout()
		return m, cmd
	}
	text := typedText(msg)
	r, size := utf8.DecodeRuneInString(text)
	if size == 0 || size != len(text) {
		return m, nil
	}
	var a agent.Answer
	switch r {
	case 'y', 'Y':
		a.Kind = agent.AllowOnce
	case 'a', 'A':
		if len(q.q.Rules) == 0 { // not offered: a risky call asks each time
			return m, nil
		}
		a.Kind = agent.AllowAlways
	case 'n', 'N':
		q.reasoning = true
		m.layout()
		return m, nil
	default:
		return m, nil
	}
	m.running.asking = nil
	m.layout()
	cmd := m.answer(a)
	return m, cmd
}

// permissionPaste takes a paste while a question shows: the reason's text
// once n was pressed, nothing before (a paste never answers).
func (m *Model) permissionPaste(text string) (tea.Model, tea.Cmd) {
	if !m.running.asking.reasoning {
		return m, nil
	}
	m.input.InsertString(normalizeNewlines(text))
	m.layout()
	return m, nil
}

// maxQuestionRows bounds the rows the call takes in a question: a long
// command shows its start, and the answers stay on screen.
const maxQuestionRows = 4

// permissionLines is the question in the live area, wrapped to the
// terminal's width less its one-column margin (continuation rows indented
// two columns).
func (m *Model) permissionLines() []string {
	r := m.running
	if r == nil || r.asking == nil {
		return nil
	}
	q := r.asking.q
	what := render.Sanitize(m.cfg.Shell.Executor.Registry().Summary(q.Use.Name, q.Use.Input))
	if q.Why != "" {
		what += " — " + render.Sanitize(q.Why)
	}
	w := m.width - 1
	var lines []string
	for _, l := range wrapRows(fmt.Sprintf("Allow %s?", what), w, maxQuestionRows) {
		lines = append(lines, m.styles.Warning.Render(l))
	}
	if r.asking.reasoning {
		for _, l := range wrapRows("  Tell Claude why (Enter sends; Ctrl+C interrupts the turn)", w, 0) {
			lines = append(lines, m.styles.Dim.Render(l))
		}
		return lines
	}
	return append(lines, wrapParts(answerParts(q), " · ", w)...)
}

// answerParts are the answers a question offers: "always" names every rule
// it adds and the risky parts that will still ask; with no rule to add it
// is not offered.
func answerParts(q agent.Question) []string {
	var rules []string
	for _, r := range q.Rules {
		if r.HasSpec {
			rules = append(rules, render.Sanitize(r.Specifier))
		} else {
			rules = append(rules, render.Sanitize(r.Tool))
		}
	}
	var risky []string
	for _, p := range q.Risky {
		risky = append(risky, strconv.Quote(render.Sanitize(p)))
	}
	if len(rules) == 0 {
		return []string{"y yes", "n no, and tell Claude why", `(no "always": it would allow too much)`}
	}
	always := "a always (this session, " + strings.Join(rules, ", ")
	switch len(risky) {
	case 0:
	case 1:
		always += "; " + risky[0] + " asks each time"
	default:
		always += "; " + strings.Join(risky, ", ") + " ask each time"
	}
	return []string{"y yes", always + ")", "n no, and tell Claude why"}
}

// questionIndent starts the continuation rows of a question.
const questionIndent = "  "

// wrapRows wraps s to width cells at spaces (cutting a word wider than a
// row), the rows after the first indented by questionIndent; more than
// maxRows rows (0: no limit) end with "…". s is plain text (neutralised,
// no escape sequences). A width under 10 (unknown, or a terminal too
// narrow to wrap in) leaves s on one row.
func wrapRows(s string, width, maxRows int) []string {
	if width < 10 {
		return []string{s}
	}
	body := strings.TrimLeft(s, " ")
	var rows []string
	row := s[:len(s)-len(body)] // the first row keeps s's own indentation
	empty := true               // row holds no word yet
	for _, word := range strings.Split(body, " ") {
		for {
			sep := " "
			if empty {
				sep = ""
			}
			if ansi.StringWidth(row)+len(sep)+ansi.StringWidth(word) <= width {
				row, empty = row+sep+word, false
				break
			}
			if !empty { // the word goes to the next row
				rows, row, empty = append(rows, row), questionIndent, true
				continue
			}
			// Wider than a whole row: cut it.
			piece := ansi.Truncate(word, width-ansi.StringWidth(row), "")
			if piece == "" {
				_, n := utf8.DecodeRuneInString(word)
				piece = word[:n]
			}
			rows, row = append(rows, row+piece), questionIndent
			if word = word[len(piece):]; word == "" {
				break
			}
		}
	}
	if !empty || len(rows) == 0 {
		rows = append(rows, row)
	}
	if maxRows > 0 && len(rows) > maxRows {
		rows = rows[:maxRows]
		rows[maxRows-1] = ansi.Truncate(rows[maxRows-1], width-1, "") + "…"
	}
	return rows
}

// wrapParts lays out parts joined by sep, indented by questionIndent, in
// rows of width cells: a row breaks between parts, and a part wider than a
// row wraps on its own.
func wrapParts(parts []string, sep string, width int) []string {
	if width < 10 {
		return []string{questionIndent + strings.Join(parts, sep)}
	}
	var rows []string
	row := ""
	for _, p := range parts {
		switch {
		case row == "":
			row = questionIndent + p
		case ansi.StringWidth(row+sep+p) <= width:
			row += sep + p
		default:
			rows = append(rows, row)
			row = questionIndent + p
		}
		if ansi.StringWidth(row) > width {
			wrapped := wrapRows(row, width, 0)
			rows = append(rows, wrapped[:len(wrapped)-1]...)
			row = wrapped[len(wrapped)-1]
		}
	}
	return append(rows, row)
}

// costText is /cost: the session's use and cost so far.
func costText(t agent.TurnDone) string {
	if t.Model == "" {
		return "Nothing spent yet: no request has been answered in this session"
	}
	s := "Session so far: " + agent.CostLine(t.Session, t.Model)
	if _, ok := agent.PriceOf(t.Model); !ok {
		s += " (no price known for " + render.Sanitize(t.Model) + ")"
	}
	return s
}

// Compacter is an Agent that compacts its conversation on demand
// (*agent.Agent is one): /compact.
type Compacter interface {
	Compact(ctx context.Context, emit func(agent.Event)) error
}

// startCompact runs /compact like a prompt: the spinner runs, Ctrl+C
// interrupts, the events and the end arrive as a prompt's do.
func (m *Model) startCompact(text string) (*Model, tea.Cmd) {
	c, ok := m.cfg.Agent.(Compacter)
	if !ok {
		m.prompt.status = 1
		m.println(m.styles.Error.Render("/compact: this agent cannot compact its conversation"))
		return m, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.runs++
	r := &run{id: m.runs, line: text, started: m.cfg.Now(), cancel: cancel, tail: newTailBuffer(tailBytes)}
	r.events = make(agentEvents, 16)
	m.running = r
	m.layout()
	dir := m.cfg.Dir
	ch := r.events
	return m, tea.Batch(func() tea.Msg {
		err := c.Compact(ctx, func(ev agent.Event) { ch <- ev })
		if err != nil && ctx.Err() != nil {
			err = agent.ErrInterrupted
		}
		ch <- agentFinished{err: err, dir: dir()}
		close(ch)
		return nil
	}, waitAgent(r.id, r.events), m.spin.Tick)
}
